# t3009 - on a GPU: red team 35 (docs/redteam35-cuda.md) around red team
# 34's refusals.  A texture handle passed as a 32-bit parameter (tex32),
# which no 8-byte word held, and a texture init() made but the launch
# never uses beside a 64-bit stride of 1 (incx, once refused for reading
# that 1 as a handle) are launch_failed because the planner's context
# holds a texture object (a replay's fresh context has none); a recursion
# under a stack init() raised to 16 KiB a thread (stack) is ok because the
# replay sets the planner's raised stack; a [begin, end) pair init() left
# in device memory, its end one past a 4 MiB allocation (endscr), is ok
# because that end is relocated as the parameters' one-past-the-end is; a
# texture launch() makes, launches over and destroys (texdead) and a base
# pointer 4 MiB before its input (farbias) are launch_failed with their
# reasons (until 2026-11-30 wrong_output and crashed: no live handle was
# left to find, and near_buffer looked 1 MiB out).
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only tex32 --only incx --only stack --only endscr --only texdead --only farbias \
	tests/fixtures/specs/cuda-redteam35.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^honest +ok " run.txt || { cat run.txt; fail "the honest baseline is not ok"; }
grep -qE "^tex32 +launch_failed " run.txt || { cat run.txt; fail "tex32 was not refused"; }
grep -qE "^incx +launch_failed " run.txt || { cat run.txt; fail "incx was not refused"; }
grep -q "made a texture object" run.txt && ! grep -q "incx.*a parameter of kernel" run.txt || { cat run.txt; fail "the refusal does not name the texture object"; }
grep -qE "^stack +ok " run.txt || { cat run.txt; fail "stack is not ok (the planner's stack was not carried)"; }
grep -qE "^endscr +ok " run.txt || { cat run.txt; fail "endscr is not ok (init()'s end pointer was not relocated)"; }
grep -qE "^texdead +launch_failed " run.txt && grep -q "made 1 texture or surface object" run.txt || { cat run.txt; fail "texdead was not refused for the texture launch() made and destroyed"; }
grep -qE "^farbias +launch_failed " run.txt && grep -q "bytes before an input" run.txt || { cat run.txt; fail "farbias was not refused for its address before the input"; }
