# docs/writing-a-problem.md followed literally through the command line: its
# `file=` blocks written into a scratch repository, `evident help problems`
# lists the new problem, and its example experiment runs and passes.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p problems && cp "$REPO"/problems/*.h "$REPO"/problems/*.c problems/ || fail "copy problems"
# every ```LANG file=PATH block of the guide, verbatim, at PATH
mkdir -p kernels/axpy experiments || fail "mkdir"
awk '
	/^```[a-z]* file=/ { path = substr($0, index($0, "file=") + 5); printf "" > path; inblk = 1; next }
	inblk && /^```$/ { close(path); inblk = 0; next }
	inblk { print >> path }
' "$REPO/docs/writing-a-problem.md" || fail "extracting the guide's blocks"
[ -s problems/axpy.c ] && [ -s kernels/axpy/naive.c ] && [ -s experiments/axpy-demo.yaml ] || fail "the guide lacks a file= block"
expect_exit 0 "$EVIDENT" help problems
expect_contains "$TEST_TMP/out" "axpy - Y = alpha X + Z"
expect_contains "$TEST_TMP/out" "  shape keys     N"
expect_contains "$TEST_TMP/out" "gemm - C = A B"
expect_exit 0 "$EVIDENT" run --no-progress experiments/axpy-demo.yaml
