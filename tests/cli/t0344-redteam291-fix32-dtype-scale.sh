# t0344 - red team 291 row 1 (host/redteam291/README.md): rowsum's secret
# scale 2^k was drawn in [-14, 0] for every dtype (fill() does not know the
# dtype, and fp16 must hold the inputs and the sums), so fix32.c, a
# fixed-point sum at a 2^-32 step in int64, and fix32v.c (the same in
# double lanes) were exact on every fp32 input drawn: `ok` 12 of 12 runs
# each, `validated` supported, fix32v 1.8x `faster` supported, and wrong on
# ordinary fp32 data (gradients of 1e-6: rel L2 1.2e-4, the rule 2e-5).
# Now a problem may export a dtype-aware fill (problems/evident_fill_dtype.h)
# and rowsum's draws k in [-60, 0] for fp32 and bf16 (fp16 keeps [-14, 0]):
# both are refused in every run (wrong_output, or flaky where one
# distribution passed at one scale and failed at another), `validated
# fix32` is contradicted, and the honest fltsum.c and naive.c stay ok.
# About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host
cat > rt291.yaml <<EOF
name: t0344-rt291
question: is a fixed-point sum fine enough only for fp16's scale range refused on fp32?
problem: rowsum
backend: host
shape: {R: 256, C: 4096}
correctness: {seeds: 6}
timing: {warmup_ms: 10, samples: 30}
limits: {timeout_s: 300}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c}
  fltsum: {kernel: $K/redteam286/fltsum.c}
  fix32: {kernel: $K/redteam291/fix32.c}
  fix32v: {kernel: $K/redteam291/fix32v.c}
repeats: 3
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" rt291.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in naive fltsum fix32 fix32v; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^naive ok$' outcomes.out)" 3 "naive ok"
expect_eq "$(grep -c '^fltsum ok$' outcomes.out)" 3 "fltsum ok"
expect_eq "$(grep -cE '^fix32 (wrong_output|flaky)$' outcomes.out)" 3 "fix32 refused"
expect_eq "$(grep -cE '^fix32v (wrong_output|flaky)$' outcomes.out)" 3 "fix32v refused"
cat > claim.md <<'EOF'
fix32 passes every check. <!-- claim: validated experiment=t0344-rt291 variant=fix32 -->
fltsum passes every check. <!-- claim: validated experiment=t0344-rt291 variant=fltsum -->
EOF
"$EVIDENT" audit --store "$TEST_TMP/s" claim.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim.md:1: contradicted: validated t0344-rt291/fix32"
expect_match audit.out "claim.md:2: supported: validated t0344-rt291/fltsum"
exit 0
