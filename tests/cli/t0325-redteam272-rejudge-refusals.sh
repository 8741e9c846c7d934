# t0325 - red team 272 (host/redteam272/README.md): the re-judge asked
# questions no check of either build was held to.  xtol: a later build
# whose rule is 1e-2 at odd C (the extra shape's) cleared a cheat failing
# there at 1e-3 (validated supported 4 of 4): a shape check is weighed by
# the rule its run recorded (rejudge.c rule_of_check).  reftag: a later
# build whose fill is tagged by an ulp and whose box answers "too costly"
# to every re-judge cleared a failure through the fingerprints (supported
# 3 of 3): what the current build's box will not re-judge stands
# (gap_at b_refused, build_box_honest -2).  mask: a failing build bent in
# its checker only on uniform draws, past the eight worst failures it
# chose, refuted an honest code (contradicted 3 of 3): every failed check
# is held to its hashes (judged_as_it_computes).  About 100 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam272
K=1 sh $D/xrule.sh "$TEST_TMP/xtol" xtol > xtol.out 2>&1
cat xtol.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "xrule.sh left problems/softmax.c edited"
if grep -q "^nice 19 batch: xnw wrong_output" xtol.out; then
	expect_match xtol.out "claim.md:2: contradicted: validated rt272-xrule/xnw: "
	grep -q "^eval: PROMOTED" xtol.out && fail "eval promoted xnw (xtol)"
else
	echo "xnw was not wrong at nice 19 here: xtol not judged"
fi
K=1 sh $D/reflaunder.sh "$TEST_TMP/reftag" reftag > reftag.out 2>&1
cat reftag.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "reflaunder.sh left problems/softmax.c edited"
if grep -q "^nice 19 batch: nw wrong_output" reftag.out; then
	expect_match reftag.out "claim.md:2: contradicted: validated rt227-nicewrong/nw: "
	grep -q "^eval: PROMOTED" reftag.out && fail "eval promoted nw (reftag)"
else
	echo "nicewrong was not wrong at nice 19 here: reftag not judged"
fi
EVALS=0 sh $D/mask8.sh "$TEST_TMP/mask" mask > mask.out 2>&1
cat mask.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "mask8.sh left problems/softmax.c edited"
expect_match mask.out "^side batch \(mask\): chal wrong_output"
expect_match mask.out "claim.md:1: supported: validated rt272-mask8/chal: "
exit 0
