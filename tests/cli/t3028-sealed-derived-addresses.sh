# t3028 - on a GPU: an honest launch() that reaches a tensor through an
# address derived from another (red team 276,
# tests/fixtures/adversary/cuda/redteam276/README.md: Y passed as X plus a
# byte offset, X as Y plus one, Y with a tag in its top byte) is refused
# with the reason, launch_failed naming trust: host, never replayed at the
# planner's offset (predicted wrong_output, unwritten_output or crashed:
# the replay's tensors move every sample).  seal.cu moved_tensors_check
# captures launch() once more with the tensors placed elsewhere and
# requires the same steps.  The honest control, a low-bit tag inside Y
# (relocated with its offset), and every trust: host twin stay ok.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/cuda-redteam276-delta.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
for v in plain plain_host lowtag ydelta_host xdelta_host tagged_host; do
	grep -qE "^$v +ok " run.txt || { cat run.txt; fail "$v (honest, relocatable or in its own process) was not ok"; }
done
for v in ydelta xdelta tagged; do
	grep -qE "^$v +launch_failed " run.txt || { cat run.txt; fail "$v (an address derived from a tensor's) was not refused"; }
done
grep -q "when the launch's tensors lay elsewhere" run.txt || { cat run.txt; fail "the refusal does not say why"; }
[ $rc = 0 ] || { cat run.txt; fail "a variant was not as its expect: says (exit $rc)"; }
exit 0
