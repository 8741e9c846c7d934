#!/usr/bin/env bash
# kcheck.sh - build every attention_fwd kernel, reference and fault fixture
# with the runner's nvcc line, run tests/gpu/kcheck on each, print a table.
#
# Independent of the evident runner: this is how the kernels were checked
# before the runner existed, and how to re-check them on any GPU host.
# Steps: (1) compile each variant below for $ARCH (default sm_90) with
#   nvcc -O3 -shared -Xcompiler -fPIC -cudart shared -arch=$ARCH -Xptxas -v
#        -I<repo>/kernels -DNAME=VALUE... -o NAME.so FILE  [-lcublas -lcudnn]
# (libraries from the file's "// evident: libs ..." line), in parallel,
# keeping each ptxas report; (2) SASS facts (HMMA count, 16-byte loads) when
# cuobjdump exists; (3) kcheck on everything, each variant with its expected outcome, the
# spin fixture alone with a short timeout, the kernels that take any S at
# S=397 with adversarial inputs; (4) compute-sanitizer: memcheck
# and racecheck on the main kernels at a small shape, racecheck on the
# smem_race fixture, which must report a hazard.  The kcheck table
# comes last.  Full logs go to $OUT (or build/kcheck) as build.txt,
# sanitizer.txt, kcheck.txt.
#
# Exit: 0 every variant as expected, 1 not, 77 no nvcc or no GPU
# ("skip: no GPU").  Environment: ARCH, NVCC, KCHECK_BUILD (build folder),
# KCHECK_SKIP_SAN=1, KCHECK_PREBUILT=1 (use the objects and build logs
# already in KCHECK_BUILD, e.g. built on a machine without a GPU).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
B=${KCHECK_BUILD:-build/kcheck}
LOGS=${OUT:-$B}

if [ ! -x "$NVCC" ]; then echo "skip: no nvcc"; exit 77; fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip: no GPU"; exit 77
fi
mkdir -p "$B" "$LOGS" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
"$NVCC" --version | tail -1

A=kernels/attention R=kernels/reference F=tests/fixtures/cuda
# name | source | -D flags | expected kcheck status (build_failed: must not build)
VARIANTS="
naive|$A/attn_naive.cu||ok
tiled|$A/attn_tiled.cu||ok
tiled_m128_n32|$A/attn_tiled.cu|-DBLOCK_M=128 -DBLOCK_N=32|ok
fa_base|$A/fa_s512.cu|-DBLOCK_M=64 -DBLOCK_N=64 -DNUM_WARPS=4 -DSTAGES=1|ok
fa_iter1|$A/fa_s512.cu|-DBLOCK_M=128 -DBLOCK_N=64 -DNUM_WARPS=8 -DSTAGES=1 -DS_FP16=1|ok
fa_s2|$A/fa_s512.cu|-DSTAGES=2|ok
fa_s2_v4|$A/fa_s512.cu|-DSTAGES=2 -DVEC_WIDTH=4|ok
fa_s2_v2_f16|$A/fa_s512.cu|-DSTAGES=2 -DVEC_WIDTH=2 -DS_FP16=1|ok
fa_v1|$A/fa_s512.cu|-DVEC_WIDTH=1|ok
fa_m128_w4|$A/fa_s512.cu|-DBLOCK_M=128 -DNUM_WARPS=4|ok
fa_m32_n128_w2|$A/fa_s512.cu|-DBLOCK_M=32 -DBLOCK_N=128 -DNUM_WARPS=2 -DSTAGES=2|ok
fa_m16_n32_w1|$A/fa_s512.cu|-DBLOCK_M=16 -DBLOCK_N=32 -DNUM_WARPS=1|ok
fa_m80|$A/fa_s512.cu|-DBLOCK_M=80 -DNUM_WARPS=4|init_refused
fa_smem_over|$A/fa_s512.cu|-DBLOCK_M=128 -DBLOCK_N=256 -DNUM_WARPS=8 -DSTAGES=2|init_refused
fa_s2_v1|$A/fa_s512.cu|-DSTAGES=2 -DVEC_WIDTH=1|build_failed
fa_m100_w8|$A/fa_s512.cu|-DBLOCK_M=100 -DNUM_WARPS=8|build_failed
wmma|$A/fa_wmma.cu||ok
wmma_m128_w8|$A/fa_wmma.cu|-DBLOCK_M=128 -DNUM_WARPS=8|ok
wmma_m64_w2|$A/fa_wmma.cu|-DBLOCK_M=64 -DNUM_WARPS=2|ok
wmma_n32|$A/fa_wmma.cu|-DBLOCK_N=32|ok
wmma_n128|$A/fa_wmma.cu|-DBLOCK_N=128|ok
wmma_m16_w1_n16|$A/fa_wmma.cu|-DBLOCK_M=16 -DNUM_WARPS=1 -DBLOCK_N=16|ok
mma|$A/fa_mma.cu||ok
mma_m128_w8|$A/fa_mma.cu|-DBLOCK_M=128 -DNUM_WARPS=8|ok
mma_n128|$A/fa_mma.cu|-DBLOCK_N=128|ok
mma_n32_s3|$A/fa_mma.cu|-DBLOCK_N=32 -DSTAGES=3|ok
mma_m16_w1_n16|$A/fa_mma.cu|-DBLOCK_M=16 -DNUM_WARPS=1 -DBLOCK_N=16|ok
mma_d128|$A/fa_mma.cu|-DHEAD_DIM=128|init_refused
mma_m80_w4|$A/fa_mma.cu|-DBLOCK_M=80 -DNUM_WARPS=4|build_failed
mma_s1|$A/fa_mma.cu|-DSTAGES=1|build_failed
mma2|$A/fa_mma2.cu||ok
mma2_m16_n16_k8|$A/fa_mma2.cu|-DBLOCK_M=16 -DBLOCK_N=16 -DKV_SPLIT=8 -DNUM_WARPS=8|ok
mma2_w4_k2|$A/fa_mma2.cu|-DKV_SPLIT=2 -DNUM_WARPS=4|build_failed
cublas_attn|$R/cublas_attn.cu||ok
cudnn_sdpa|$R/cudnn_sdpa.cu||ok
fx_correct|$F/correct.cu||ok
fx_misaligned|$F/misaligned.cu||crashed
fx_oob_write|$F/oob_write.cu||crashed
fx_smem_race|$F/smem_race.cu||ok
fx_nan_out|$F/nan_out.cu||nan
fx_partial_out|$F/partial_out.cu||unwritten_output
fx_spin|$F/spin.cu||timeout
"

# (1) build, in parallel
build_one() { # name src flags
	local libs
	libs=$(sed -n 's|^// evident: libs ||p' "$2" | head -1 | sed 's/\([a-z0-9_]\+\)/-l\1/g')
	# shellcheck disable=SC2086
	"$NVCC" -O3 -shared -Xcompiler -fPIC -cudart shared -arch="$ARCH" -Xptxas -v \
		-I"$ROOT/kernels" $3 -o "$B/$1.so" "$2" $libs >"$B/$1.build.log" 2>&1
	echo $? >"$B/$1.build.rc"
}
if [ "${KCHECK_PREBUILT:-0}" = 1 ]; then
	echo "using the objects already in $B (KCHECK_PREBUILT=1)"
else
	rm -f "$B"/*.so "$B"/*.build.rc
	echo "building $(echo "$VARIANTS" | grep -c '|') variants for $ARCH ..."
	while IFS='|' read -r name src flags expect; do
		[ -n "$name" ] || continue
		build_one "$name" "$src" "$flags" &
		while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 0.2; done
	done <<<"$VARIANTS"
	wait
fi

: >"$LOGS/build.txt"
bad=0
ok_args=() spin_args=()
printf '\n%-18s %-10s %5s %8s %6s  %s\n' variant build regs smem_B spill_B flags
while IFS='|' read -r name src flags expect; do
	[ -n "$name" ] || continue
	rc=$(cat "$B/$name.build.rc" 2>/dev/null || echo 99)
	log="$B/$name.build.log"
	{ echo "== $name: $src $flags (rc $rc)"; cat "$log"; } >>"$LOGS/build.txt"
	regs=$(grep -oE 'Used [0-9]+ registers' "$log" | grep -oE '[0-9]+' | sort -n | tail -1)
	smem=$(grep -oE '[0-9]+ bytes smem' "$log" | grep -oE '[0-9]+' | sort -n | tail -1)
	spill=$(grep -oE '[0-9]+ bytes spill stores' "$log" | grep -oE '^[0-9]+' | sort -n | tail -1)
	if [ "$rc" = 0 ]; then st=built; else st=failed; fi
	if [ "$expect" = build_failed ]; then
		if [ "$rc" = 0 ]; then st="built(NO)"; bad=1; else st="failed(yes)"; fi
	elif [ "$rc" != 0 ]; then
		bad=1
	fi
	printf '%-18s %-10s %5s %8s %6s  %s\n' "$name" "$st" "${regs:--}" "${smem:-0}" "${spill:--}" "$flags"
	if [ "$rc" != 0 ] && [ "$expect" = build_failed ]; then
		grep -m1 -E 'error' "$log" | cut -c1-150 | sed 's/^/    /'
	elif [ "$rc" != 0 ]; then
		grep -m3 -E 'error' "$log" | cut -c1-200 | sed 's/^/    /'
	fi
	[ "$rc" = 0 ] || continue
	if [ "$name" = fx_spin ]; then spin_args+=("$B/$name.so=$expect"); else ok_args+=("$B/$name.so=$expect"); fi
done <<<"$VARIANTS"

if [ "${KCHECK_PREBUILT:-0}" != 1 ] || [ ! -x "$B/kcheck" ]; then
	"$NVCC" -O2 -Xcompiler -fopenmp -I"$ROOT/kernels" -o "$B/kcheck" tests/gpu/kcheck.cu -ldl -lgomp || exit 1
fi

# (2) SASS facts
if command -v cuobjdump >/dev/null 2>&1; then
	echo
	echo "SASS: variant HMMA LDG.128 LDGSTS LDL/STL"
	for n in fa_base fa_s2 fa_v1 wmma wmma_m128_w8 tiled naive; do
		[ -f "$B/$n.so" ] || continue
		cuobjdump -sass "$B/$n.so" >"$B/$n.sass" 2>/dev/null
		printf '  %-14s %5s %7s %6s %4s\n' "$n" "$(grep -c HMMA "$B/$n.sass")" \
			"$(grep -cE 'LDG\.E\.128|LDG\.E\.CONSTANT\.128|LDG\.E\.128\.CONSTANT' "$B/$n.sass")" \
			"$(grep -c LDGSTS "$B/$n.sass")" "$(grep -cE '\b(LDL|STL)\b' "$B/$n.sass")"
	done
fi

# (3) kcheck: everything, then the spin fixture alone with a short timeout;
# then the kernels that take any S on an odd S with adversarial inputs
echo
set -o pipefail
"$B/kcheck" --timeout 60 "${ok_args[@]}" 2>&1 | tee "$LOGS/kcheck.txt" | grep -vE '^ *$' | grep -vE '^R ' >"$B/kcheck.out"
rc1=$?
rc2=0
if [ ${#spin_args[@]} -gt 0 ]; then
	"$B/kcheck" --timeout 8 --shape 1,2,128,64 "${spin_args[@]}" 2>&1 | tee -a "$LOGS/kcheck.txt" >"$B/kcheck.spin.out"
	rc2=$?
fi
adv_args=()
for n in mma mma_m128_w8 mma_n32_s3 mma_m16_w1_n16 mma2 mma2_m16_n16_k8 cudnn_sdpa cublas_attn; do
	[ -f "$B/$n.so" ] && adv_args+=("$B/$n.so")
done
"$B/kcheck" --timeout 60 --iters 10 --shape 1,2,397,64 --dist peaked --shape 1,2,397,64 \
	--dist large --shape 1,2,397,64 --dist bigv --shape 1,2,397,64 --dist uniform --shape 1,1,1,64 \
	--shape 1,1,17,64 "${adv_args[@]}" 2>&1 |
	tee -a "$LOGS/kcheck.txt" >"$B/kcheck.adv.out"
rc3=$?
# (4) compute-sanitizer at a small shape
if [ "${KCHECK_SKIP_SAN:-0}" != 1 ] && command -v compute-sanitizer >/dev/null 2>&1; then
	: >"$LOGS/sanitizer.txt"
	echo
	echo "compute-sanitizer (shape 1,2,128,64):"
	san() { # tool so...
		local tool=$1; shift
		timeout 60 compute-sanitizer --tool "$tool" --target-processes all \
			"$B/kcheck" --shape 1,2,128,64 --iters 1 --timeout 50 "$@" >"$B/san.$tool.log" 2>&1
		cat "$B/san.$tool.log" >>"$LOGS/sanitizer.txt"
	}
	main=()
	for n in fa_base fa_iter1 fa_s2 wmma wmma_m16_w1_n16 mma mma_m16_w1_n16 mma2 mma2_m16_n16_k8; do
		[ -f "$B/$n.so" ] && main+=("$B/$n.so")
	done
	san memcheck "${main[@]}"
	echo "  memcheck  main kernels: $(grep -E 'ERROR SUMMARY' "$B/san.memcheck.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
	san racecheck "${main[@]}"
	echo "  racecheck main kernels: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$B/san.racecheck.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
	cp "$B/san.racecheck.log" "$B/san.racecheck.main.log"
	san racecheck "$B/fx_smem_race.so"
	hz=$(grep -cE 'Race reported|Potential .*hazard|RACECHECK SUMMARY: [1-9]' "$B/san.racecheck.log")
	if [ "$hz" -gt 0 ]; then verdict='hazard reported (expected)'; else verdict='NO HAZARD (unexpected)'; bad=1; fi
	echo "  racecheck fx_smem_race: $(grep -E 'RACECHECK SUMMARY' "$B/san.racecheck.log" | head -1) -> $verdict"
fi

grep -vE '^kernel |\.so ' "$B/kcheck.out" | grep -vE '\.so: ' | head -20
echo
grep -E '^kernel ' "$B/kcheck.out" | cut -c1-165
grep -E '\.so ' "$B/kcheck.out" | cut -c1-165
grep -E '\.so ' "$B/kcheck.spin.out" 2>/dev/null | cut -c1-165
grep -E '\.so ' "$B/kcheck.adv.out" 2>/dev/null | cut -c1-165
[ "$rc1" = 77 ] && { echo "skip: no GPU"; exit 77; }
if [ "$bad" != 0 ] || [ "$rc1" != 0 ] || [ "$rc2" != 0 ] || [ "$rc3" != 0 ]; then
	echo "kcheck.sh: NOT all as expected (build $bad, kcheck $rc1, spin $rc2, adversarial $rc3)"
	exit 1
fi
echo "kcheck.sh: all as expected"
