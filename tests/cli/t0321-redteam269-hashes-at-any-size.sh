# t0321 - red team 269 (host/redteam269/README.md, ckbig.sh): the re-judge's
# box gave no answer past 2^20 entries, so at R 1024 x C 1024 no check's
# hashes were held against it and red team 261's rotation in the checker
# only refuted an honest code again (validated contradicted 3 of 3).  Now
# a box asked for hashes alone answers at any number of entries
# (problem_box.c judge_values hashes_only; rejudge.c box_hashes): the bent
# build's failures say nothing, validated supported.  Row 1 (a one-ulp
# fill change clearing a failure at that size) is still open.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
EVALS=0 sh tests/fixtures/adversary/host/redteam269/ckbig.sh "$TEST_TMP/rot" rot > rot.out 2>&1
cat rot.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "ckbig.sh left problems/softmax.c edited"
expect_match rot.out "^side batch \(rot\): chal wrong_output"
expect_match rot.out "^proposer batch \(HEAD\): chal ok"
expect_match rot.out "claim.md:1: supported: validated rt269-ckbig/chal: "
exit 0
