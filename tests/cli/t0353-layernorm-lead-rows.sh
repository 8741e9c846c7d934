# t0353 - red team 296 row 1 (host/redteam296/README.md): layernorm's
# statistics in one pass over x - x[0] (lnshift.c SHIFT 1, the method
# README called "as cheap and honest on every distribution") cancel by
# ((E[x] - x[0]) / sd)^2 where x[0] is an outlier of its row, 1.2x..3x
# the fp32 rule, and no fill put one there but `spikes`, at a secret
# column (~1 launch in 80 of it): ok 21 of 21 runs.  Now half the
# `uniform` launches lead 4..16 secret rows with a run of 1..min(16, C /
# 1024) elements at (50..100) sd from the rest of the row
# (problems/layernorm.c ln_fill_lead): SHIFT 1 is refused in most runs
# (wrong_output, or flaky where a check passed) and its two-pass twin
# (SHIFT 0) and kernels/layernorm/naive.c stay ok.  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
cat > shift.yaml <<EOF
name: t0353-shift
question: is a one pass shifted by x[0] refused, and its two-pass twin not?
problem: layernorm
backend: host
kernel: tests/fixtures/adversary/host/redteam296/lnshift.c
shape: {R: 256, C: 1024}
correctness: {seeds: 12}
timing: {warmup_ms: 5, samples: 40}
limits: {timeout_s: 180}
flags: [-O3, -mavx2, -mfma]
baseline: naive
variants:
  naive: {kernel: kernels/layernorm/naive.c}
  twopass: {SHIFT: 0}
  shift1: {SHIFT: 1}
repeats: 3
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" shift.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in naive twopass shift1; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^naive ok$' outcomes.out)" 3 "naive.c ok"
expect_eq "$(grep -c '^twopass ok$' outcomes.out)" 3 "the two-pass twin ok"
# refused in most runs: a run's ~6 launches with lead rows each refuse it
# (test_layernorm_lead_rows: 18 of 18), yet 1 of 6 runs of this test read
# 2 of 3 after ln_fill_scatter (2026-12-07), 12 of 12 before
n=$(grep -cE '^shift1 (wrong_output|flaky)$' outcomes.out)
[ "$n" -ge 2 ] || fail "the one pass shifted by x[0] refused in $n of 3 runs (at least 2 asked)"
exit 0
