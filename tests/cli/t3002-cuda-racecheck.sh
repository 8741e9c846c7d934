# t3002 - compute-sanitizer on a GPU: a kernel whose answer is right but
# which races on shared memory is ok by its correctness checks, and its
# record carries a failed racecheck verdict; the control's verdicts pass.
. "$REPO/tests/cli/lib.sh"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/smem_race.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
command -v compute-sanitizer >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" ] ||
	skip "compute-sanitizer not found"
cd "$REPO"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-race.yaml
expect_exit 0 "$EVIDENT" ls --experiment cuda-race
cp "$TEST_TMP/out" "$TEST_TMP/ls"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the verdicts"
verdicts() { # variant -> "tool=passed ..." from the record
	local id
	id=$(awk -v v="$1" '$3 == v { print $1 }' "$TEST_TMP/ls")
	"$EVIDENT" show --json "$id" | python3 -c 'import json, sys
r = json.load(sys.stdin)
print(" ".join(sorted("%s=%s" % (v["tool"], json.dumps(v.get("passed"))) for v in r["sanitize"])))'
}
expect_eq "$(verdicts correct)" "memcheck=true racecheck=true" "correct's verdicts"
expect_eq "$(verdicts smem_race)" "memcheck=true racecheck=false" "smem_race's verdicts"
