# t0179 - a worker that dies before its count is judged like one that
# ended early: the checks its draw still owed, and the cover of every
# distribution, are drawn among the skipped samples the parent holds (the
# late draw, job.c job_judge), and checked.  Before, a crashed worker got
# no late draw: red team 67's edgecrash (3 honest timed samples, 8 that
# wrote nothing, then abort) met about one check a run in its first 11
# samples, often none that failed, and its median (the unwritten samples')
# became its code's fastest speed, which eval held honest candidates by.
# Each crashed run here must have late checks and a failed one (8 of its
# 11 samples wrote nothing).
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/late.yaml <<'Y'
name: late
problem: rowsum
backend: host
baseline: ref
shape: {R: 1024, C: 256}
variants:
  ref: {kernel: tests/fixtures/adversary/host/redteam67/edgecrash.c, NOP: 1, WALL: 4000000000, WRONGP: 100, HONESTN: 3, CRASHN: 8, expect: crashed}
  honest: {kernel: tests/fixtures/adversary/host/redteam67/edgecrash.c, NOP: 2, expect: ok}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 200, cache: hot}
repeats: 2
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/late.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "a crashed run was not judged by a late draw"
import json, sys
n = 0
for p in sys.argv[1:]:
    r = json.load(open(p))
    if r.get("kind") == "batch" or r.get("variant") != "ref":
        continue
    n += 1
    assert r["outcome"] == "crashed", (p, r["outcome"])
    tc = r["judge"]["timed_checks"]
    timed = [c for c in r["correctness"]["checks"] if c["phase"] == "timed"]
    failed = sum(not c["pass"] for c in timed)
    print(p, "late", tc["late"], "owed", tc["owed"], "timed checks", len(timed), "failed", failed)
    assert tc["late"] > 0, "no late draw"
    assert failed > 0, "no failed timed check"
assert n == 2, n
PY
