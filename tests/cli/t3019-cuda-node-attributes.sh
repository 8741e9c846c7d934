# t3019 - on a GPU: launch attributes that reach a captured kernel node
# without cudaLaunchKernelEx (red team 169,
# tests/fixtures/adversary/cuda/redteam169/README.md).  nodecarve sets
# carveout 0 on the node launch() just captured
# (cudaGraphKernelNodeSetAttribute), which reads back as a fresh node's;
# streamapw puts an L2 access policy window on the stream, which the
# capture copies into the node.  Before (H200, 2026-12-04, batch
# 20261204T161206.967Z-cuda-redteam169-02e9f94d-batch): nodecarve ok at
# 8.26 us sealed against 15.68 us in its process, the carveout dropped.
# Now the harness refuses an attribute set on a captured node and
# seal.cu node_attrs one the node holds that a fresh node does not:
# both launch_failed, with the way out; plain, which sets nothing, ok.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only plain --only nodecarve --only nodecarve_host --only streamapw \
	tests/fixtures/specs/cuda-redteam169.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^plain +ok " run.txt || { cat run.txt; fail "plain, which sets no attribute, is not ok"; }
grep -qE "^nodecarve_host +ok " run.txt || { cat run.txt; fail "nodecarve's trust: host twin is not ok"; }
grep -qE "^nodecarve +launch_failed " run.txt || { cat run.txt; fail "nodecarve (an attribute set on the captured node) was not refused"; }
grep -q "set launch attributes on a graph node" run.txt || { cat run.txt; fail "nodecarve's reason does not name the node's attributes"; }
grep -qE "^streamapw +launch_failed " run.txt || { cat run.txt; fail "streamapw (a stream attribute copied into the node) was not refused"; }
grep -q "holds launch attributes a fresh node of it does not" run.txt || { cat run.txt; fail "streamapw's reason does not name the node's attributes"; }
grep -q "trust: host" run.txt || fail "no way out named"
