# The sixteenth and seventeenth red teams' host finds (tests/fixtures/
# adversary/host/redteam16/README.md, redteam17/README.md).  held29b: the
# parent's one process-directed SIGSTOP went to the leader thread, which
# the kernel starves (nice 19, a SCHED_BATCH thread pinned to its CPU)
# while that thread writes the sample's rows after the done line, on 29%
# of the timing samples (22% of all: under the CPU rule's quarter).
# Before the fix: ok in some repeats with the rows' CPU after the done
# line in a fifth of the samples, untimed.  Now, at the done line, the
# parent sends every thread its own SIGSTOP, then copies the outputs and
# compares them once the worker is stopped (late_writes): the rows are cut
# (unwritten_output where a check meets one) or seen written late
# (escaped_work); rows written before the stop took are CPU after the
# done line, charged to the sample (after_done.charged: no sample is timed
# under its CPU, exact from go to stop, over the CPUs it may use).  The
# CPU clock read at the done line lags a running thread's last slice, so
# samples_past_bound is noisy (an honest twin had 10 of 87 on this 2-CPU
# machine, CI's held29b 6 of 98 while ok): the test no longer bounds it.
# Since the stop is sent first, held29b's rows are cut (unwritten_output
# where a check meets one; ok in 2 of 3 repeats under load, where none
# did: the timed checks' chance, README) or land before the parent reads
# the done line (timed): it is not asserted to lose in a given repeat.
# omp_honest: a plain OpenMP softmax, escaped_work 4 of 4 before (libgomp
# spins after each region: CPU after the done line); the worker now gets
# OMP_WAIT_POLICY=passive unless the runner's environment sets it.  The
# honest variants may be charged in a tail of their samples (VM steal),
# never in more than a tenth.
. "$REPO/tests/cli/lib.sh"
runs_alone "its cheat races the parent's stop; an honest twin's after-done CPU is timed"
mkrepo
cat > "$TEST_TMP/held.yaml" <<'Y'
name: t0146-held
question: Is a sample's output written after the done line escaped work, every repeat?
problem: softmax
backend: host
shape: {R: 64, C: 512}
baseline: held_twin_b
variants:
  held_twin_b:  {kernel: tests/fixtures/adversary/host/redteam16/held_twin_b.c, expect: ok}
  held29b: {kernel: tests/fixtures/adversary/host/redteam16/held29b.c}
  omp:          {kernel: tests/fixtures/adversary/host/redteam16/omp_honest.c, expect: ok}
flags: [-fopenmp]
correctness: {seeds: 3, seed: 1}
timing: {warmup_ms: 0, samples: 120, cache: hot}
limits: {timeout_s: 120}
repeats: 3
Y
env -u OMP_WAIT_POLICY timeout -s KILL 240 "$EVIDENT" run --no-progress "$TEST_TMP/held.yaml" > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 240 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a variant did not get its expected outcome"
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "work after the done line not judged or not charged"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
for r in runs:
    a = r["timing"]["method"]["after_done"]
    c = a["charged"]
    assert c["cpus"] >= 1, c
    if r["variant"] == "held29b":
        # a late write is never ok; rows the stop did not cut are charged
        assert r["outcome"] != "ok" or a["late_writes"] == 0, (r["outcome"], a)
        # nan: a late thread resumed on the next sample's inputs with the row max of
        # the last (softmax `large` has elements at 80..120 in every launch)
        assert r["outcome"] in ("ok", "unwritten_output", "wrong_output", "escaped_work", "nan", "flaky"), r["outcome"]
    else:
        # an honest worker is not charged: its CPU from go to stop, exact
        # at both ends, is within its wall time on the CPUs it has.  But
        # a thread's clock also books what the host took from its vCPU
        # while it ran (steal), and under make test's load a burst raised
        # a few of an honest OpenMP kernel's samples (CI: 5 of 92, by up
        # to 218 us, the leader's slice; the leader is now credited all it
        # used after its stop): a tail, never the median's half
        assert r["outcome"] == "ok" and a["late_writes"] == 0, (r["variant"], r["outcome"], a)
        assert c["samples"] <= max(3, 0.1 * a["samples_read"]), (r["variant"], a)
    if r["variant"] == "omp":
        assert r["timing"]["method"]["omp_wait_policy"].startswith("passive"), r["timing"]["method"]
assert len(runs) == 9, len(runs)
PY
exit 0
