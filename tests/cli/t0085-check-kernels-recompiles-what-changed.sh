# scripts/check-kernels.sh (make check-kernels, make test's repository
# check) compiles a kernel again exactly when a file it compiles from
# changed: its .cu, a header it includes (directly or through another, by
# "..." beside the including file or in kernels/), a .cu it includes (as
# kernels/attention/tools/fa_wgmma_check.cu includes fa_wgmma2.cu).  A
# header it does not include (one under src/, say) leaves it alone: the
# key once held every header of the tree, so any edit to one under src/
# cost a 2-CPU machine three minutes of CPU recompiling all 51 units, and
# it missed the included .cu.  A file is compiled for both its archs in
# one call (the host passes once), each arch's table rows read from
# ptxas's "for 'sm_XX'" lines; when that call fails, each arch is
# compiled on its own and the table says which one failed.  The compiler
# here is a stand-in (a script that logs each compile with its archs and
# writes the -Xptxas -v lines check-kernels reads, a function of its own
# for each arch), so the test needs no CUDA and takes a second.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it runs scripts/check-kernels.sh, not \$EVIDENT"
mkdir -p t/kernels/attention/tools t/kernels/gemm t/src/run && cd t || fail "mkdir"
cp "$REPO/scripts/check-kernels.sh" . || fail "cp"
cat >nvcc <<'N'
#!/usr/bin/env bash
# stand-in nvcc: --version, or "compile" (log the source and its archs,
# write -o's file and a resource report for each arch; a source with the
# line "FAIL_ARCH" fails for ARCH, as ptxas would)
[ "$1" = --version ] && { echo "stand-in nvcc 1.0"; exit 0; }
o= src= archs=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) o=$2; shift ;;
	-gencode=*) a=${1##*code=}; a=${a#[}; archs+=("${a%%[],]*}") ;;
	*.cu) src=$1 ;;
	esac
	shift
done
echo "$src ${archs[*]}" >>"$COMPILES"
for a in "${archs[@]}"; do
	grep -qx "FAIL_$a" "$src" && { echo "ptxas error   : fails for '$a'"; exit 1; }
done
: >"$o"
for a in "${archs[@]}"; do
	echo "ptxas info    : Compiling entry function 'k_$a' for '$a'"
	echo "ptxas info    : Function properties for k_$a"
	echo "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
	echo "ptxas info    : Used ${a#sm_} registers, 0 bytes smem"
done
N
chmod +x nvcc
export COMPILES=$PWD/compiles
echo '#define EV_K 1' >kernels/evident_kernel.h
echo '#define CUH 1' >kernels/attention/common.cuh
echo '#define SRC_H 1' >src/run/unrelated.h
printf '#include "../evident_kernel.h"\n#include "common.cuh"\n__global__ void k() {}\n' >kernels/attention/a.cu
printf '#include "../a.cu"\n' >kernels/attention/tools/a_check.cu
printf '#include <evident_kernel.h>\n#include <stdio.h>\n__global__ void k() {}\n' >kernels/gemm/g.cu
printf '__global__ void k() {}\n' >kernels/gemm/plain.cu
units="kernels/attention/a.cu kernels/attention/tools/a_check.cu kernels/gemm/g.cu kernels/gemm/plain.cu"
# check WHAT EXPECTED...: run check-kernels; the sources compiled (each
# once, for sm_80 and sm_90) are EXPECTED, in any order; the table has
# each arch's row of each file, read from its log, compiled now or not
check() {
	local what=$1 got want f a
	shift
	: >"$COMPILES"
	# shellcheck disable=SC2086
	NVCC=$PWD/nvcc JOBS=2 ./check-kernels.sh kcheck $units >out 2>&1 || { cat out; fail "$what: check-kernels failed"; }
	got=$(sort "$COMPILES" | tr '\n' ' ')
	want=$(for f in "$@"; do echo "$f sm_80 sm_90"; done | sort | tr '\n' ' ')
	expect_eq "$got" "$want" "$what: the units compiled"
	expect_contains out "check-kernels: 8 units in 4 compiles (a file's archs in one), $# compiled now"
	for f in $units; do
		for a in sm_80 sm_90; do
			grep -qE "^$f +$a +k_$a +${a#sm_} +0 +0 +0 +0 ok\$" out || { cat out; fail "$what: no row of $f for $a"; }
		done
	done
}
check "first" $units
check "nothing changed"
echo '#define SRC_H 2' >src/run/unrelated.h
check "a header under src/ that no kernel includes changed"
echo '#define CUH 2' >kernels/attention/common.cuh
check "a header a.cu includes beside itself changed" kernels/attention/a.cu kernels/attention/tools/a_check.cu
printf '#include "../evident_kernel.h"\n#include "common.cuh"\n__global__ void k() { }\n' >kernels/attention/a.cu
check "a.cu, which a_check.cu includes, changed" kernels/attention/a.cu kernels/attention/tools/a_check.cu
echo '#define EV_K 2' >kernels/evident_kernel.h
check "kernels/evident_kernel.h (\"...\" and <...>) changed" kernels/attention/a.cu kernels/attention/tools/a_check.cu kernels/gemm/g.cu
printf '__global__ void k() { }\n' >kernels/gemm/plain.cu
check "plain.cu changed" kernels/gemm/plain.cu
KCHECK_FRESH=1 check "KCHECK_FRESH=1" $units
# a file that fails for sm_90 only: the two-arch call fails, each arch is
# compiled on its own, and the table and the message name sm_90 alone
printf '__global__ void k() { }\nFAIL_sm_90\n' >kernels/gemm/plain.cu
: >"$COMPILES"
# shellcheck disable=SC2086
expect_exit 1 env NVCC=$PWD/nvcc JOBS=2 ./check-kernels.sh kcheck $units
expect_eq "$(sort "$COMPILES" | tr '\n' ' ')" "kernels/gemm/plain.cu sm_80 kernels/gemm/plain.cu sm_80 sm_90 kernels/gemm/plain.cu sm_90 " "the failing file's compiles"
grep -qE '^kernels/gemm/plain.cu +sm_80 +k_sm_80 +80 .* ok$' "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "plain.cu's sm_80 row is not ok"; }
grep -qE '^kernels/gemm/plain.cu +sm_90 +- .* FAILED$' "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "plain.cu's sm_90 row is not FAILED"; }
expect_contains "$TEST_TMP/err" "check-kernels: kernels/gemm/plain.cu (sm_90) failed to compile (log: kcheck/kernels_gemm_plain__sm_90.log):"
expect_contains "$TEST_TMP/err" "ptxas error   : fails for 'sm_90'"
expect_not_contains "$TEST_TMP/err" "(sm_80)"
expect_contains "$TEST_TMP/out" "check-kernels: 8 units in 4 compiles (a file's archs in one), 1 compiled now, 3 unchanged"
# and a failure is compiled again next time, not taken as unchanged
: >"$COMPILES"
# shellcheck disable=SC2086
expect_exit 1 env NVCC=$PWD/nvcc JOBS=2 ./check-kernels.sh kcheck $units
expect_contains "$COMPILES" "kernels/gemm/plain.cu sm_80 sm_90"
