# The sixteenth red team's host finds (tests/fixtures/adversary/host/
# redteam16/README.md).  held29b: the parent's one SIGSTOP goes to
# the leader thread, which the kernel starves (nice 19, a SCHED_BATCH
# thread pinned to its CPU) while that thread writes the sample's rows
# after the done line, on 29% of the timing samples (22% of all: under
# the CPU rule's quarter; red team 16's held85b_busy did 85% under the
# busy period's half, which its init's spinning made).  Before the fix:
# ok in 2 of 2 repeats here.  Now the parent copies the outputs as soon as its clock reads
# the done line and compares them once the worker is stopped: any sample
# whose outputs changed in between is escaped_work, in every repeat, and
# the honest twin has none (timing.method.after_done.late_writes).
# omp_honest: a plain OpenMP softmax, escaped_work 4 of 4 before (libgomp
# spins after each region: CPU after the done line); the worker now gets
# OMP_WAIT_POLICY=passive unless the runner's environment sets it.
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
# held29b: escaped_work by its late writes (or by the worker's CPU while
# the parent copied the outputs, where the parent was preempted between its
# clock and its copy).  Not every repeat under a heavy load: where the
# parent wakes for the done line only after the rows are written, they
# were timed, and an ok is the truth (4 of these tests at once on 2 CPUs:
# one repeat in about eight); so of three repeats, at least one
expect_match "$TEST_TMP/out" "^held29b +(escaped_work|flaky)"
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "late_writes in the records"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
caught = 0
for r in runs:
    a = r["timing"]["method"]["after_done"]
    if r["variant"] == "held29b":
        caught += r["outcome"] == "escaped_work" and a["late_writes"] > 0
    else:
        assert r["outcome"] == "ok" and a["late_writes"] == 0, (r["variant"], r["outcome"], a)
    if r["variant"] == "omp":
        assert r["timing"]["method"]["omp_wait_policy"].startswith("passive"), r["timing"]["method"]
assert caught >= 1, "no repeat of held29b was escaped_work by its late writes"
assert len(runs) == 9, len(runs)
PY
exit 0
