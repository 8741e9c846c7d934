# t0324 - red team 271 row 1 (host/redteam271/README.md, listwin.c): the
# late rule read the worker's CPU only after the parent had copied the
# outputs, listed every thread, stopped each and read each one's
# schedstat; a crowd of 440 idle threads made that room milliseconds, and
# two helpers inside mmap(MAP_FIXED|MAP_POPULATE) of 16 MiB, entered as
# the launch returned (a stop does not cut it short), ran through it
# unseen: `late` ok 9 of 9 with 0-2 samples past the bound, its twin
# without the crowd escaped_work 7 of 9.  Now the late CPU is read once
# the process and its leader are sent their stops (host_clock.c
# round_trip), each thread credited its own stop (threads_credit,
# host_clock_stop_credit).  Asserted: late has a quarter or more of its
# timing samples past the bound (15-23 of 26-37 after the fix, 0-2
# before); escaped_work itself is not (2 of 3 runs on the loaded 2-CPU
# VM, as the crowdless twin's 7 of 9).  The honest twin `on` (the same
# work on the clock, the same crowd) stays ok, once more where its try
# ran in a busy period.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone "a crowd of 440 threads woken by every stop: the late CPU races the parent"
mkrepo
cat > "$TEST_TMP/lw.yaml" <<'Y'
name: t0324-listwin
question: is a helper's syscall after the done line late work beside an idle crowd?
problem: rowsum
backend: host
shape: {R: 1024, C: 4096}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 5, samples: 40}
limits: {timeout_s: 120}
baseline: on
variants:
  on:   {kernel: tests/fixtures/adversary/host/redteam271/listwin.c, POOL: 64, IDLE: 440, ZERO: 16777216, ON: 1, expect: ok}
  late: {kernel: tests/fixtures/adversary/host/redteam271/listwin.c, POOL: 64, IDLE: 440, ZERO: 16777216, ON: 0, expect: escaped_work}
repeats: 1
Y
# judge STORE: one line per run: variant outcome past timing busy
judge() {
	python3 - "$1"/runs/*.json <<'PY'
import json, sys
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    r = json.load(open(f))
    a = ((r.get("timing") or {}).get("method") or {}).get("after_done") or {}
    print(r["variant"], r["outcome"], a.get("samples_past_bound"), a.get("samples_timing"), bool(a.get("load_busy")))
PY
}
for try in 1 2; do
	store=$TEST_TMP/s$try
	timeout -s KILL 240 "$EVIDENT" run --no-progress "$TEST_TMP/lw.yaml" --store "$store" > out.$try 2>&1
	[ "$?" != 137 ] || fail "evident run still ran after 240 s"
	judge "$store" > j.$try
	cat j.$try
	# the hole: late's post-done syscall under the rule's bound in all
	# but a few samples
	awk '$1 == "late" { ok = ($2 == "escaped_work" || 4 * $3 >= $4) } END { exit !ok }' j.$try ||
		fail "late (a helper's mmap populate after its done line, beside 440 idle threads) reads under the late bound: $(grep '^late ' j.$try)"
	grep -q "^on ok " j.$try && exit 0
	grep -q "^on .* True$" j.$try || fail "the honest twin on is not ok (not a busy period): $(grep '^on ' j.$try)"
	echo "try $try: on not ok in a busy period: once more" >&2
done
fail "the honest twin on is not ok in two tries: $(grep '^on ' j.2)"
