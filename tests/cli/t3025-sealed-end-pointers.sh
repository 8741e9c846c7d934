# t3025 - on a GPU: one past the end of an allocation stays one past its
# end in a sealed replay.  Red team 246's endptr: an honest [ws, ws + 2
# MiB) pair whose end was the start of the table cudaMalloc'd right after
# ws, with a third buffer far away so that the replay dropped the
# planner's layout: the end became the worker's table, wrong output
# (seal.cu joined_layout keeps buffers that lay end to start so).  And
# the class for tensors (cuda-tensor-end.yaml): an honest rowsum taking
# its input as [X, X + R*C), with a workspace init() placed at the
# input's end where it could: the planner keeps guard bytes around each
# tensor (cuda_worker.c PLAN_GUARD), so the end is the input's.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only plain --only endptr \
	tests/fixtures/specs/cuda-redteam246.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^plain +ok " run.txt || { cat run.txt; fail "plain (honest) was not ok"; }
grep -qE "^endptr +ok " run.txt || { cat run.txt; fail "endptr (an honest end pointer at the next allocation's start) was not ok sealed"; }
"$EVIDENT" run --no-progress tests/fixtures/specs/cuda-tensor-end.yaml >te.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat te.txt; fail "the tensor-end run failed (exit $rc)"; }
for v in pair pair_ws pair_host; do
	grep -qE "^$v +ok " te.txt || { cat te.txt; fail "$v (an honest [begin, end) pair over the input) was not ok"; }
done
exit 0
