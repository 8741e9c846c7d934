# docs/writing-a-kernel.md followed literally: its `file=` blocks written
# into a scratch repository, its host experiment run, and every outcome,
# note and exit code the guide shows checked against what the run printed
# (ok, the specialised note, the expected init_failed, the did-you-mean of
# a misspelt tunable), the compiler command line it shows checked against
# the record, its CUDA experiment dry-run; where nvcc exists, the CUDA
# kernel compiled with the guide's nvcc command (flags as backend_cuda.c
# has them) and its echo read back from the object.  Nothing runs on a GPU.
#
# The guide's runs are run with --repeats 1 (the guide's commands run its
# default, 3): what is checked here (outcomes, notes, exit codes, the
# compiler line) is the same for each repeat, and no verdict is checked;
# the three repeats cost two thirds of this test's time (16 of 27 s on an
# idle 2-CPU machine, minutes under make test's load).  The CUDA part runs
# nvcc and python, not evident, so it runs in the plain pass only.
. "$REPO/tests/cli/lib.sh"
guide=$REPO/docs/writing-a-kernel.md
builds_from_nothing "its subject is what a build records: the compiler line the guide shows"
mkrepo
# every ```LANG file=PATH block of the guide, verbatim, at PATH
awk '
	/^```[a-z]* file=/ { path = substr($0, index($0, "file=") + 5); printf "" > path; inblk = 1; next }
	inblk && /^```$/ { close(path); inblk = 0; next }
	inblk { print >> path }
' "$guide" || fail "extracting the guide's blocks"
for f in kernels/rowsum/unrolled.c kernels/rowsum/block.cu experiments/rowsum-unrolled.yaml \
	experiments/rowsum-typo.yaml experiments/rowsum-gpu.yaml; do
	[ -s "$f" ] || fail "the guide lacks a file=$f block"
done
# the text of the guide's ```sh build=NAME block, continuation lines joined
block() { awk -v tag="build=$1" '$0 == "```sh " tag { on = 1; next } on && /^```$/ { exit } on { print }' "$guide" |
	sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta'; }
# says LINE: the guide shows LINE, and the run printed it
says() {
	expect_contains "$guide" "$1"
	expect_contains "$TEST_TMP/out" "$1"
}

# the example experiment: ok, ok, ok and the expected init_failed; exit 0
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 experiments/rowsum-unrolled.yaml
for v in naive:ok unroll4:ok unroll8:ok unroll3:init_failed; do
	grep -qE "^${v%%:*} +${v#*:} " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "variant ${v%%:*} did not end ${v#*:}"; }
done
says "  - unroll3: init_failed - init: C=4096 is not a multiple of UNROLL=3 (expected)"
# the extra shape's C is drawn each run, of either parity (red teams 274,
# 277): the guide shows one draw, the run prints its own; where the draw
# was a multiple of UNROLL the extra shape was checked and no note says
# otherwise
cp "$TEST_TMP/out" "$TEST_TMP/run.out"
"$EVIDENT" ls --json >"$TEST_TMP/ls0.json" || fail "evident ls --json"
for u in 4 8; do
	re="^  - unroll$u: specialised: its init refused the extra shape \\(C=[0-9]+ is not a multiple of UNROLL=$u\\); it was checked at the spec's shape only\$"
	expect_match "$guide" "$re"
	if grep -q "^  - unroll$u: specialised" "$TEST_TMP/run.out"; then
		expect_match "$TEST_TMP/run.out" "$re"
	else
		id=$(python3 -c "import json,sys; print([r['run_id'] for r in json.load(open(sys.argv[1])) if r['variant'] == 'unroll$u'][0])" "$TEST_TMP/ls0.json") ||
			fail "no run of unroll$u in evident ls"
		expect_exit 0 "$EVIDENT" show --json "$id"
		xs=$(python3 -c "import json,sys; x = json.load(open(sys.argv[1]))['correctness']['extra_shape']; print(x['status'], x['shape']['C'] % $u)" "$TEST_TMP/out") ||
			fail "no extra shape in unroll$u's record"
		expect_eq "$xs" "checked 0" "unroll$u without the note: its extra shape checked at a C that is a multiple of $u"
	fi
done

# the compiler command line the guide shows is the one the record holds
"$EVIDENT" ls --json >"$TEST_TMP/ls.json" || fail "evident ls --json"
id=$(python3 -c "import json,sys; print([r['run_id'] for r in json.load(open(sys.argv[1])) if r['variant'] == 'unroll4'][0])" "$TEST_TMP/ls.json") ||
	fail "no run of unroll4 in evident ls"
expect_exit 0 "$EVIDENT" show --json "$id"
argv=$(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['code']['compiler']['argv']))" "$TEST_TMP/out") ||
	fail "no code.compiler.argv in the record"
expect_eq "$argv" "$(block host)" "the host build command of the guide"

# without its expect:, the refusal fails the run (exit 1), as the guide says
expect_contains "$guide" "Without
its \`expect: init_failed\` the same run exits 1."
sed -i 's/, expect: init_failed//' experiments/rowsum-unrolled.yaml
expect_exit 1 "$EVIDENT" run --no-progress --repeats 1 --only unroll3 experiments/rowsum-unrolled.yaml

# a misspelt tunable: the run is ok, and the note names the echoed one
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 experiments/rowsum-typo.yaml
grep -qE "^unroll8 +ok " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "unroll8 of rowsum-typo did not end ok"; }
says "  - unroll8: parameter UNROL was not echoed by the kernel (did you mean UNROLL?): it may never reach the code"

# the GPU experiment is a valid spec with the four variants the guide names
expect_exit 0 "$EVIDENT" run --dry-run experiments/rowsum-gpu.yaml
expect_contains "$TEST_TMP/out" "backend cuda, 4 variant(s), baseline naive"

# the CUDA kernel, compiled by the guide's own nvcc command
nvcc_bin=${NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)}
if [ -z "$nvcc_bin" ] || [ ! -x "$nvcc_bin" ]; then
	echo "cuda part skipped: no nvcc here (set NVCC=); the host part passed"
	exit 0
fi
# (under make test's CLI_ONCE this test runs in one pass only, so there
# that pass runs the cuda part too)
case "$EVIDENT:${CLI_ONCE:-}" in *build-san/*:)
	echo "cuda part skipped: it runs nvcc, not evident, so it runs in the plain pass only; the host part passed"
	exit 0
	;;
esac
# its flags are the cuda backend's (the arch and the rpath's directory vary)
code_flags=$(grep -o 'flags\[nf++\] = "[^"]*"' "$REPO/src/backends/backend_cuda.c" | sed 's/.*= "//; s/"$//' | tr '\n' ' ')
guide_flags=$(block cuda | tr -s ' ' '\n' | sed -n '/^nvcc$/,/^-I/p' | grep -v -e '^nvcc$' -e '^-I' -e '^-arch=' -e 'lib64$' | tr '\n' ' ')
expect_eq "$guide_flags" "$code_flags" "the nvcc flags of the guide against backend_cuda.c"
CUDA_HOME=$(cd "$(dirname "$nvcc_bin")/.." && pwd)
export CUDA_HOME PATH="$(dirname "$nvcc_bin"):$PATH"
expect_exit 0 bash -c "$(block cuda)"
[ -s rowsum_block.so ] || fail "the guide's nvcc command wrote no rowsum_block.so"
# what the object says about itself (loading it needs no GPU)
python3 - rowsum_block.so >"$TEST_TMP/out" 2>"$TEST_TMP/err" <<'PY' || { cat "$TEST_TMP/err"; fail "cannot read the kernel's description"; }
import ctypes, sys
class Desc(ctypes.Structure):
    _fields_ = [("abi", ctypes.c_uint32), ("size", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("backend", ctypes.c_char_p), ("problem", ctypes.c_char_p), ("init", ctypes.c_void_p),
                ("launch", ctypes.c_void_p), ("fini", ctypes.c_void_p), ("params", ctypes.c_char_p)]
fn = ctypes.CDLL("./" + sys.argv[1]).evident_kernel
fn.restype = ctypes.POINTER(Desc)
d = fn().contents
print(d.name.decode(), d.backend.decode(), d.problem.decode(), d.params.decode(), bool(d.init), bool(d.fini))
PY
expect_eq "$(cat "$TEST_TMP/out")" "rowsum_block cuda rowsum BLOCK_THREADS=256 True False" "the CUDA kernel's description"
