# t0349 - red team 293 rows 4 and 4b (host/redteam293/README.md): rowsum's
# secret scale 2^k was one a sample, shared by every row of a launch, so
# headfix.c, an int64 fixed-point sum at a step taken from the launch's
# first nonzero element with 2^27 of headroom, was exact on every input
# drawn: `ok` 12 of 12 runs, `faster` 4 of 4, promoted by eval 3 of 3, and
# wrong on a batch of rows in different units.  Now three launches in four
# give each row its own 2^k_r (problems/rowsum.c rowsum_row_exp: one
# secret row at the sample's scale, the others anywhere under it), so a
# step from one element wraps on the rows far above it: headfix is refused
# in every run (wrong_output, or flaky where one seed passed and another
# failed), `validated headfix` is contradicted, and the honest naive.c
# and red team 286's fltsum.c stay ok.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host
cat > rt293.yaml <<EOF
name: t0349-rt293
question: is a fixed-point step from the launch's first element refused?
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
  headfix: {kernel: $K/redteam293/headfix.c}
repeats: 3
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" rt293.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in naive fltsum headfix; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^naive ok$' outcomes.out)" 3 "naive ok"
expect_eq "$(grep -c '^fltsum ok$' outcomes.out)" 3 "fltsum ok"
expect_eq "$(grep -cE '^headfix (wrong_output|flaky)$' outcomes.out)" 3 "headfix refused"
cat > claim.md <<'EOF'
headfix passes every check. <!-- claim: validated experiment=t0349-rt293 variant=headfix -->
fltsum passes every check. <!-- claim: validated experiment=t0349-rt293 variant=fltsum -->
EOF
"$EVIDENT" audit --store "$TEST_TMP/s" claim.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim.md:1: contradicted: validated t0349-rt293/headfix"
expect_match audit.out "claim.md:2: supported: validated t0349-rt293/fltsum"
exit 0
