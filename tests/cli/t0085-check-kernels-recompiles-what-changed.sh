# scripts/check-kernels.sh (make check-kernels, make test's repository
# check) compiles a kernel again exactly when a file it compiles from
# changed: its .cu, a header it includes (directly or through another, by
# "..." beside the including file or in kernels/), a .cu it includes (as
# kernels/attention/tools/fa_wgmma_check.cu includes fa_wgmma2.cu).  A
# header it does not include (one under src/, say) leaves it alone: the
# key once held every header of the tree, so any edit to one under src/
# cost a 2-CPU machine three minutes of CPU recompiling all 51 units, and
# it missed the included .cu.  The compiler here is a stand-in (a script
# that logs each compile and writes the -Xptxas -v lines check-kernels
# reads), so the test needs no CUDA and takes a second.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it runs scripts/check-kernels.sh, not \$EVIDENT"
mkdir -p t/kernels/attention/tools t/kernels/gemm t/src/run && cd t || fail "mkdir"
cp "$REPO/scripts/check-kernels.sh" . || fail "cp"
cat >nvcc <<'N'
#!/usr/bin/env bash
# stand-in nvcc: --version, or "compile" (log the source, write -o's file
# and a resource report)
[ "$1" = --version ] && { echo "stand-in nvcc 1.0"; exit 0; }
o= src=
while [ $# -gt 0 ]; do
	case $1 in -o) o=$2; shift ;; *.cu) src=$1 ;; esac
	shift
done
echo "$src" >>"$COMPILES"
: >"$o"
echo "ptxas info    : Compiling entry function 'k' for 'sm_80'"
echo "ptxas info    : Function properties for k"
echo "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
echo "ptxas info    : Used 8 registers, 0 bytes smem"
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
# for sm_80 and sm_90) are EXPECTED, in any order
check() {
	local what=$1 got want
	shift
	: >"$COMPILES"
	# shellcheck disable=SC2086
	NVCC=$PWD/nvcc JOBS=2 ./check-kernels.sh kcheck $units >out 2>&1 || { cat out; fail "$what: check-kernels failed"; }
	got=$(sort "$COMPILES" | tr '\n' ' ')
	want=$(for f in "$@"; do echo "$f"; echo "$f"; done | sort | tr '\n' ' ')
	expect_eq "$got" "$want" "$what: the units compiled"
	expect_contains out "check-kernels: 8 units, $(($# * 2)) compiled now"
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
