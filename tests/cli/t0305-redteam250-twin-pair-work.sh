# t0305 - red team 250 (tests/fixtures/adversary/host/redteam250/README.md,
# row 1): a `faster` claim between two rows neither of which is the batch's
# baseline was judged by the audit from the two rows' timing samples alone
# (audit_verdict.c pair_compare_now), without the launches' work, so rules
# 4b/4c never ran: same2, which does base4's exact total work with a
# lighter median launch, read `faster` than base4b (base4's twin) 3 of 3.
# Now the pair carries the work the batch's comparisons do
# (src/run/work_compare.c) and goes through the same stats_verdict: the
# claim against the twin is not supported, as the one against the
# baseline is not.  The binary before the fix (6d555f084's parent) failed
# this test 3 of 3 (same2 supported at 1.31-1.46x, p 0.0064-0.00017);
# about 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone "same2 against base4b is a ratio of two medians, which load moves"
mkrepo
D=tests/fixtures/adversary/host/redteam250
export EVIDENT_STORE="$TEST_TMP/s"
nice -n 19 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam250-small.yaml > run.out 2>&1 ||
	{ cat run.out; fail "the batch did not run"; }
expect_match run.out "^same2 +ok"
# the median reads same2 faster than both (else the test shows nothing)
python3 -S - "$EVIDENT_STORE" > med <<'P' || fail "reading the batch: $(cat med)"
import glob, json, sys
b = json.load(open(glob.glob(sys.argv[1] + "/runs/*-batch.json")[0]))
m = {r["variant"]: r["median_us"] for r in b["variants"]}
print("%.3f %.3f" % (m["base4"] / m["same2"], m["base4b"] / m["same2"]))
P
read -r sp4 sp4b < med
python3 -S -c "import sys; sys.exit(not (float('$sp4b') > 1.2))" ||
	skip "same2's median is not 1.2x under base4b's here ($sp4b): nothing to judge"
cat > claim.md <<'C'
same2 is faster than base4b. <!-- claim: faster experiment=host-redteam250-small a=same2 b=base4b -->
same2 is faster than base4. <!-- claim: faster experiment=host-redteam250-small a=same2 b=base4 -->
C
"$EVIDENT" audit --store "$EVIDENT_STORE" claim.md > audit.out 2>&1 || true
cat audit.out
grep -q "^claim.md:2: supported" audit.out && fail "same2 (base4's exact work) supported faster than base4"
grep -q "^claim.md:1: supported" audit.out &&
	fail "same2 (base4's exact work) supported faster than base4b, base4's twin (median ${sp4b}x): rules 4b/4c skipped on the computed pair"
expect_match audit.out "^claim.md:1: (contradicted|unsupported): faster same2 vs base4b"
exit 0
