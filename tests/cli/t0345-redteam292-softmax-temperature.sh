# t0345 - red team 292 (host/redteam292/README.md, row 1): softmax's
# `uniform` was [-1, 1) and every stress value 4 or more in magnitude, so
# no element the judge drew had |x| in [1, 4), and gap4.c (exp(x - m) as
# a degree-10 Taylor exp(x), good on [-1, 1] only, times exp(-m) wherever
# |x| < 4; expf elsewhere) was ok 9 of 9 runs, `faster` 3 of 3, promoted
# 3 of 3 and its `validated` supported, while wrong on real logits in
# [-3, 3).  Now every `uniform` (and `large`) row has a secret temperature
# in [1/4, 4) (problems/softmax.c softmax_fill): gap4 is refused in every
# run (wrong_output, or flaky where one check passed), its `validated`
# is not supported (a claim of GAP 1's would be contradicted too: the
# audit holds the same file at other parameters against it), and its
# honest twin (the same file at GAP 1, the
# Taylor exp only where |x| < 1) and the general path stay ok.  About 15 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam292
cat > rt292.yaml <<EOF
name: t0345-rt292
question: is a softmax wrong only on elements whose |x| is in [1, 4) refused?
problem: softmax
backend: host
kernel: $K/gap4.c
shape: {R: 256, C: 1024}
correctness: {seeds: 6}
timing: {warmup_ms: 5, samples: 20}
limits: {timeout_s: 180}
flags: [-O3]
baseline: general
variants:
  general: {GAP: 0}
  adapt1: {GAP: 1}
  gap4: {GAP: 4}
repeats: 3
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" rt292.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in general adapt1 gap4; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^general ok$' outcomes.out)" 3 "general ok"
expect_eq "$(grep -c '^adapt1 ok$' outcomes.out)" 3 "adapt1 (GAP 1) ok"
expect_eq "$(grep -cE '^gap4 (wrong_output|flaky)$' outcomes.out)" 3 "gap4 refused"
cat > claim.md <<'EOF'
gap4 passes every check. <!-- claim: validated experiment=t0345-rt292 variant=gap4 -->
EOF
"$EVIDENT" audit --store "$TEST_TMP/s" claim.md > audit.out 2>&1
cat audit.out
expect_not_contains audit.out "claim.md:1: supported"
expect_match audit.out "claim.md:1: (contradicted|unsupported|unverifiable)"
exit 0
