# t3008 - on a GPU: what a sealed replay cannot rebuild of the planner's
# context is refused with its reason, not replayed wrong (red team 34,
# docs/redteam34-cuda.md): an honest rowsum that reads its weights through
# a texture object init() made (texobj), one that raises the device malloc
# heap in init() and mallocs 16 MiB a launch (heap), and one that passes
# its input's base less 64 floats (biased, 1-based indexing) are
# launch_failed saying so ("run the variant with trust: host"); before
# (1daa04a7, on an H200: data/gpu-evidence/h200-redteam34-20261130.txt),
# the replay handed the planner's texture handle to a context that has no
# such object (wrong_output), ran device malloc under the default 8 MiB
# heap (crashed), and passed the planner's address for X - 64 (crashed).
# And endptr, whose [begin, end) weight table ends where init()'s next
# allocation starts, is ok: the replay keeps the planner's layout of the
# kernel's own allocations (before, the end pointer was relocated as the
# next allocation, which the worker had put elsewhere: wrong_output).  The
# honest baseline and tailspin (40 us of spin after its output, which the
# window charges) stay ok.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only texobj --only heap --only biased --only endptr --only tailspin \
	tests/fixtures/specs/cuda-redteam34.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^honest +ok " run.txt || { cat run.txt; fail "the honest baseline is not ok"; }
grep -qE "^tailspin +ok " run.txt || { cat run.txt; fail "tailspin is not ok"; }
grep -qE "^endptr +ok " run.txt || { cat run.txt; fail "endptr is not ok (the scratch layout was not kept)"; }
grep -qE "^texobj +launch_failed " run.txt || { cat run.txt; fail "texobj was not refused"; }
grep -qE "^heap +launch_failed " run.txt || { cat run.txt; fail "heap was not refused"; }
grep -qE "^biased +launch_failed " run.txt || { cat run.txt; fail "biased was not refused"; }
grep -q "bytes before an input buffer" run.txt || { cat run.txt; fail "biased's reason does not say where its address lies"; }
grep -q "made a texture object" run.txt || { cat run.txt; fail "texobj's reason does not name the texture object"; }
grep -q "device malloc heap" run.txt || { cat run.txt; fail "heap's reason does not name the limit"; }
