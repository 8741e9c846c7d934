# t3000 - a CUDA experiment on a machine without a GPU stops before building,
# exits 4 (no device) and says plainly why; nothing is recorded.
. "$REPO/tests/cli/lib.sh"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
	skip "this machine has a GPU (t3001.. cover it)"
fi
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
cd "$REPO"
expect_exit 4 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-faults.yaml
grep -qE "no CUDA (driver|device)" "$TEST_TMP/err" || { cat "$TEST_TMP/err"; fail "no reason naming the driver or device"; }
expect_exit 0 "$EVIDENT" ls
expect_not_contains "$TEST_TMP/out" "cuda-faults"
