# scripts/layout-sims.sh (make test's layout-sims check) builds a
# simulator again exactly when a file it compiles from changed: its .cu
# and every file that includes by "...", directly or not.  The wgmma
# simulators include fa_wgmma2.cu; the key once named fa_wgmma.cu instead,
# so an edit to fa_wgmma2.cu left the old simulators standing, and their
# old lines passed.  wgmma_pipeline_sim is built with -O1 (its model check
# costs a fifth at -O1 of what it costs at nvcc's default host -O0).  The
# compiler here is a stand-in (a script that logs each build and writes a
# "simulator" printing an ok line that depends on its sources), so the
# test needs no CUDA and takes a second.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it runs scripts/layout-sims.sh, not \$EVIDENT"
mkdir -p t/kernels/attention t/tests/gpu && cd t || fail "mkdir"
cp "$REPO/scripts/layout-sims.sh" . || fail "cp"
cat >nvcc <<'N'
#!/usr/bin/env bash
# stand-in nvcc: --version, or "build" (log the name and flags; -o's file
# prints an ok line with the sha256 of the source and what it includes)
[ "$1" = --version ] && { echo "stand-in nvcc 1.0"; exit 0; }
o= src= flags=()
while [ $# -gt 0 ]; do
	case $1 in -o) o=$2; shift ;; *.cu) src=$1 ;; -I*) ;; *) flags+=("$1") ;; esac
	shift
done
echo "$(basename "$o") ${flags[*]}" >>"$BUILDS"
sum=$(cat "$src" kernels/attention/*.cu kernels/evident_kernel.h | sha256sum | cut -c1-12)
printf '#!/bin/sh\necho "ok %s %s"\n' "$(basename "$o")" "$sum" >"$o"
chmod +x "$o"
N
chmod +x nvcc
export BUILDS=$PWD/builds
echo '#define EV_K 1' >kernels/evident_kernel.h
for k in fa_mma fa_wgmma fa_wgmma2; do
	printf '#include "../evident_kernel.h"\n// %s 1\n' $k >kernels/attention/$k.cu
done
echo '#include "../../kernels/attention/fa_mma.cu"' >tests/gpu/mma_layout_sim.cu
echo '#include "../../kernels/attention/fa_wgmma2.cu"' >tests/gpu/wgmma_layout_sim.cu
echo '#include "../../kernels/attention/fa_wgmma2.cu"' >tests/gpu/wgmma_pipeline_sim.cu
# check WHAT EXPECTED...: run layout-sims; the simulators built are
# EXPECTED (name and flags), in any order, and every simulator's ok line
# is printed, run now or kept
check() {
	local what=$1 got want s
	shift
	: >"$BUILDS"
	NVCC=$PWD/nvcc ./layout-sims.sh sims >out 2>&1 || { cat out; fail "$what: layout-sims failed"; }
	got=$(sort "$BUILDS" | tr '\n' ';')
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ';')
	expect_eq "$got" "$want" "$what: the simulators built"
	for s in mma_layout_sim wgmma_layout_sim wgmma_pipeline_sim; do
		expect_contains out "ok $s "
	done
}
mma="mma_layout_sim -arch=sm_80"
wl="wgmma_layout_sim -gencode=arch=compute_90a,code=sm_90a"
wp="wgmma_pipeline_sim -O1 -gencode=arch=compute_90a,code=sm_90a"
check "first" "$mma" "$wl" "$wp"
check "nothing changed" ""
expect_contains out "layout-sims: wgmma_pipeline_sim unchanged since its last passing run here"
echo '// fa_wgmma.cu 2' >>kernels/attention/fa_wgmma.cu
check "fa_wgmma.cu, which no simulator includes, changed" ""
echo '// fa_wgmma2.cu 2' >>kernels/attention/fa_wgmma2.cu
check "fa_wgmma2.cu, which the wgmma simulators include, changed" "$wl" "$wp"
expect_not_contains out "layout-sims: wgmma_pipeline_sim unchanged"
echo '// fa_mma.cu 2' >>kernels/attention/fa_mma.cu
check "fa_mma.cu changed" "$mma"
echo '#define EV_K 2' >kernels/evident_kernel.h
check "kernels/evident_kernel.h, which every kernel includes, changed" "$mma" "$wl" "$wp"
