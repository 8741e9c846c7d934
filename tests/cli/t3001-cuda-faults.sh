# t3001 - the fault-fixture sweep on a GPU: every planted failure is recorded
# as its own outcome (crashed with the CUDA error's name, nan, unwritten
# output, timeout), the sweep goes on past each one, and the controls are ok.
. "$REPO/tests/cli/lib.sh"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
cd "$REPO"
expect_exit 1 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-faults.yaml
expect_exit 0 "$EVIDENT" ls --experiment cuda-faults
ls_out="$TEST_TMP/ls"
cp "$TEST_TMP/out" "$ls_out"
outcome() { awk -v v="$1" '$3 == v { print $4 }' "$ls_out"; }
expect_eq "$(outcome correct)" ok "correct"
expect_eq "$(outcome misaligned)" crashed "misaligned"
expect_eq "$(outcome oob_write)" crashed "oob_write"
expect_eq "$(outcome smem_race)" ok "smem_race"
expect_eq "$(outcome nan_out)" nan "nan_out"
expect_eq "$(outcome partial)" unwritten_output "partial"
expect_eq "$(outcome spin)" timeout "spin"
# the crash carries the CUDA error's name in the record
id=$(awk '$3 == "misaligned" { print $1 }' "$ls_out")
expect_exit 0 "$EVIDENT" show --json "$id"
expect_contains "$TEST_TMP/out" "misaligned address"
# the device was described by the harness and by NVML
expect_contains "$TEST_TMP/out" '"sm_count"'
expect_contains "$TEST_TMP/out" '"l2_bytes"'
