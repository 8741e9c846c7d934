# Honest pools, red teams 17 and 18.  An honest layernorm with 32 threads
# idle on a futex (crowd_twin32) and one whose pool spins 200 us after
# each job (spin_pool_s200) were escaped_work: the stops' own cost, and
# the spin before the done line that the CPU clock books late, counted as
# work after the done line (twin32 3 of 3, s200 37 of 150 samples past the
# bound).  Now the parent sends its stops first and reads the CPU after
# them, so both are ok; and no honest kernel is charged by the CPU floor
# (its CPU from go to stop never exceeds its wall time on the CPUs it has,
# plus the stop's allowance; the spinning pool excepted, below).  Run on one CPU (taskset), where the floor
# is tightest: before its per-thread allowance (red team 19) 100 idle
# threads were raised to it in 9 of ~40 samples.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "the stops' cost races the parent's clock, on a CPU another alone test may share"
mkrepo
cat > "$TEST_TMP/pools.yaml" <<'Y'
name: t0147-pools
question: Are honest idle and spinning thread pools judged ok and never charged?
problem: layernorm
backend: host
shape: {R: 256, C: 1024}
baseline: plain
variants:
  plain:  {kernel: tests/fixtures/adversary/host/redteam18/crowd_plain.c, expect: ok}
  idle32: {kernel: tests/fixtures/adversary/host/redteam18/crowd_twin32.c, expect: ok}
  idle100: {kernel: tests/fixtures/adversary/host/redteam18/crowd_twin100.c, expect: ok}
  spin:   {kernel: tests/fixtures/adversary/host/redteam17/spin_pool_s200.c, expect: ok}
correctness: {seeds: 2, seed: 1}
timing: {warmup_ms: 0, samples: 80, cache: hot}
limits: {timeout_s: 120}
repeats: 2
Y
pin=; command -v taskset > /dev/null && pin="taskset -c $(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')"
# pools STORE: run the spec into STORE and judge it; 0 when every run
# is ok and uncharged, else 1 with the reason on stderr
pools() {
	EVIDENT_STORE="$1" timeout -s KILL 240 $pin "$EVIDENT" run --no-progress "$TEST_TMP/pools.yaml" > "$TEST_TMP/out" 2>&1
	[ "$?" != 137 ] || fail "evident run still ran after 240 s"
	if grep "UNEXPECTED" "$TEST_TMP/out" >&2; then echo "an honest pool did not get ok" >&2; return 1; fi
	python3 - "$1"/runs/*.json <<'PY' || { echo "an honest pool judged or charged" >&2; return 1; }
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
assert len(runs) == 8, len(runs)
for r in runs:
    a = r["timing"]["method"]["after_done"]
    assert r["outcome"] == "ok" and not a["escaped"] and a["late_writes"] == 0, (r["variant"], r["outcome"], a)
    # a spinning pool on the parent's one CPU can hold the parent off its
    # stops for a time slice: that spin is CPU it burned after its done
    # line, and the floor may charge it (once, 3.3 ms, in make test);
    # idle threads burn nothing.  But a thread's clock also books what the
    # host took from its vCPU while it ran (steal, t0146): under load a
    # single sample of plain (97, 245 and 2319 us, in 3 of 3 kept local
    # failures, load 2.5 to 40) and once of idle32 was charged, the
    # outcome ok.  A tail, as t0146 allows, never more than a tenth
    if r["variant"] != "spin":
        assert a["charged"]["samples"] <= max(3, 0.1 * a["samples_read"]), (r["variant"], a["charged"])
PY
}
# Once more, in a fresh store, while the try that failed ran in a busy
# period (its records' load_busy: the load average above the CPUs), up to
# three tries: in CI (stop 44, load average 211 at the suite's end) idle100's
# 100 threads woken by each stop cost more than their credit in 34 of its
# ~60 timing samples (escaped_work); in CI of stop 51 (load 9 to 12 on this
# 2-CPU VM, another job beside make test) idle100 and then idle32 were
# escaped_work in two tries (30 and 38 of ~60 samples past the bound; idle32
# a median 65 us after its done lines).  A regression fails every try, and
# any try in a calm period.
busy_in() {
	python3 -c 'import json,sys
print(any(json.load(open(f))["timing"]["method"].get("after_done", {}).get("load_busy") for f in sys.argv[1:] if not f.endswith("-batch.json") and "timing" in json.load(open(f))))' "$1"/runs/*.json 2>/dev/null
}
store=$EVIDENT_STORE
for try in 1 2 3; do
	pools "$store" && exit 0
	[ "$(busy_in "$store")" = True ] || fail "an honest pool judged or charged (try $try), and the machine was not busy"
	[ "$try" = 3 ] && fail "an honest pool judged or charged in three tries, each in a busy period"
	echo "try $try failed in a busy period (load above the CPUs): once more" >&2
	cp "$TEST_TMP/out" "$TEST_TMP/out.$try"
	store=$TEST_TMP/store$((try + 1))
done
