# t0315 - red team 261 (host/redteam261/README.md): two denials by a bent
# build of the problem plug-in, in its checker's process only (argv names
# __check).  rot: fill() rotates X's rows by one there, so every honest
# output fails while the reference's largest magnitude, the one number
# red team 244's fix compared with the build's box, is unmoved: its
# failures counted under HEAD, `validated chal` contradicted 3 of 3.  Now
# a host check records its inputs and reference by hash (checker.c,
# problem.h problem_draw_sha256), and a failing build whose box gives
# others on the check's own draw says nothing by its failures
# (rejudge.c judged_as_it_computes).  capw: a constructor reopened the
# checker's read-only captures through /proc/self/fd/6 with O_RDWR and
# overwrote them (honest kernels wrong_output 2 of 2); the checker gets a
# memfd sealed against writes now (job.c sealed_copy), and the side batch
# is ok.  About 60 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam261
EVALS=0 sh $D/ckdeny2.sh "$TEST_TMP/rot" rot >rot.out 2>&1
cat rot.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "ckdeny2.sh left problems/softmax.c edited"
# the bend is real: the honest kernels fail under the bent build
expect_match rot.out "^side batch \(rot\): chal wrong_output"
expect_match rot.out "^side batch \(rot\): inc wrong_output"
expect_match rot.out "^proposer batch \(HEAD\): chal ok"
expect_match rot.out "claim.md:1: supported: validated rt261-ckdeny/chal: "
EVALS=0 sh $D/ckdeny2.sh "$TEST_TMP/capw" capw >capw.out 2>&1
cat capw.out
expect_match capw.out "^side batch \(capw\): chal ok"
expect_match capw.out "^side batch \(capw\): inc ok"
expect_match capw.out "claim.md:1: supported: validated rt261-ckdeny/chal: "
exit 0
