# t0317 - red team 264 (host/redteam264/README.md): the problem's focus
# (the entries it judges one by one, evident_focus.h) was plug-in code the
# new draw and reference hashes did not cover and a re-judge never asked.
# focus: a softmax build whose focus asked bounds of 1e-12 refuted the
# honest chal.c, and under HEAD (no focus) the two builds were one judge
# by their references: validated contradicted 3 of 3.  nudge: a focus-only
# failure of skew.c (inside gemm's whole rule) was cleared by a build whose
# reference moved by 1e-10: validated supported 2 of 2.  Now a host check
# with a focus records its key and its entries by hash (checker.c,
# problem.h problem_focus_sha256), the re-judge's boxes give both builds'
# focus at that key on the failure's draw (problem_box.c judge_values),
# and a focus failure stands where they agree and rests on the whole rule
# alone where they do not (rejudge.c check_stands).  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam264
EVALS=0 sh $D/ck264.sh "$TEST_TMP/focus" focus > focus.out 2>&1
cat focus.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "ck264.sh left problems/softmax.c edited"
expect_match focus.out "^side batch \(focus\): chal wrong_output"
expect_match focus.out "^proposer batch \(HEAD\): chal ok"
expect_match focus.out "claim.md:1: supported: validated rt264-focus/chal: "
sh $D/launder.sh "$TEST_TMP/nudge" nudge > nudge.out 2>&1
cat nudge.out
cmp -s problems/gemm.c "$REPO/problems/gemm.c" || fail "launder.sh left problems/gemm.c edited"
expect_match nudge.out "^HEAD, M 64: skew wrong_output"
expect_match nudge.out "claim.md:1: contradicted: validated rt264-skew/skew: "
exit 0
