# t0335 - red team 282 (host/redteam282/README.md, rows 1 and 1b): the
# extra shape's worker was told from the timed one by one allowed call in
# init: descriptor 6 (the parent's shared memory) was open in the timed
# worker alone (phasetail.c asks fcntl(6, F_GETFD)), and the job at
# descriptor 7 said "phase": "shape" there (phasejob.c preads it).  Each
# dropped the row tail except in the extra shape's worker: ok 18 of 18
# and validated supported at R 32 C 4096.  Now the extra shape's worker
# is prepared as the timed one (run/kexec.c parent_clock_prepare: the
# calibration, the shared memory at descriptor 6) and ended at its
# timing_ready, its job names no phase and says timing (run/job.c
# job_for_worker: phasejob reads "main" at descriptor 7 in both).  One
# batch, 3 repeats: every run of phasetail
# and phasejob whose drawn extra shape has a tail (C not a multiple of
# 64) is wrong_output (one allowed to pass by chance), and the honest twin
# phasehonest, which asks the same questions and sums everything, is ok
# with its extra shape checked 3 of 3.  About 10 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" tests/fixtures/specs/host-redteam282-phase4096.yaml > run.out 2>&1
cat run.out
python3 -S - "$TEST_TMP/s" > runs.out <<'PY' || fail "the records"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*.json"))):
    d = json.load(open(f))
    if "variant" not in d:
        continue
    x = d["correctness"].get("extra_shape") or {}
    c = (x.get("shape") or {}).get("C")
    tail = "tail" if isinstance(c, int) and c % 64 else "notail"
    print(d["variant"], d["outcome"], x.get("status"), tail, c)
PY
cat runs.out
expect_eq "$(grep -c '^phasehonest ok checked ' runs.out)" 3 "the honest twin ok, its extra shape checked, 3 of 3"
expect_eq "$(grep -c '^naive ok checked ' runs.out)" 3 "naive ok, its extra shape checked, 3 of 3"
tails=$(grep -cE '^phase(tail|job) [a-z_]+ checked tail ' runs.out)
caught=$(grep -cE '^phase(tail|job) wrong_output checked tail ' runs.out)
echo "phasetail and phasejob: $caught wrong_output of $tails runs with a tail at the extra shape"
[ "$tails" -ge 4 ] || fail "only $tails runs of phasetail and phasejob drew an extra shape with a tail (6 expected, each 63 in 64)"
[ "$caught" -ge $((tails - 1)) ] || fail "phasetail and phasejob ok at an extra shape with a tail: $caught wrong_output of $tails"
exit 0
