# t0320 - red team 266 (host/redteam266/README.md), past this session's
# re-judge checks.  tag: a current build whose fill() sets the low bit of
# 32 inputs and whose reference doubles on any draw without it is honest
# on its own draws (build_box_honest) and bends on the failing build's:
# nicewrong's failure cleared, validated and faster supported and eval
# promoted 3 of 3.  Now, where the two fills differ in their bits, the
# failure is weighed on the current build's own draw too (rejudge.c
# check_stands, gap_at b_draws): contradicted.  tol: a failing build that
# gave the runner a 1e-9 rule and its re-judge boxes 1e-5 refuted an honest
# code 3 of 3; now its box must give the rule its run recorded
# (judged_as_it_computes, rule_is): supported.  About 60 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam266
sh $D/launder266.sh "$TEST_TMP/tag" tag > tag.out 2>&1
cat tag.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "launder266.sh left problems/softmax.c edited"
grep -q "^nice 19 batch: nw wrong_output" tag.out || skip "nicewrong was not wrong at nice 19 here: nothing to launder"
expect_match tag.out "claim.md:2: contradicted: validated rt227-nicewrong/nw: "
grep -q "claim.md:1: supported" tag.out && fail "faster supported for a code whose failure the tagging build cleared"
grep -q "^eval: PROMOTED" tag.out && fail "eval promoted the cheat"
EVALS=0 sh $D/tolden.sh "$TEST_TMP/tol" tol > tol.out 2>&1
cat tol.out
expect_match tol.out "^side batch \(tol\): chal wrong_output"
expect_match tol.out "claim.md:1: supported: validated rt266-tolden/chal: "
exit 0
