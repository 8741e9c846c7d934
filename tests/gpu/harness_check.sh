#!/usr/bin/env bash
# harness_check.sh - build the CUDA harness, the harness test kernels of
# tests/gpu/hk/ and tests/gpu/harness_check, then run it: the table of what
# the v2 timing loop saw for honest and cheating launchers comes last.
#
#   tests/gpu/harness_check.sh [--build-only] [harness_check options]
#
# Steps: (1) the harness with mk/cuda.mk's line, for $ARCH only (default
# sm_90) unless HC_HARNESS=path names one already built; (2) each
# tests/gpu/hk/NAME.cu with the runner's kernel line
#   nvcc -O3 -shared -Xcompiler -fPIC -cudart shared -arch=$ARCH -I kernels
#        -Xlinker -rpath -Xlinker $CUDA_HOME/lib64 -o NAME.so NAME.cu
# in parallel; (3) harness_check with cc; (4) run it.  Build folder
# ${HC_BUILD:-build/hcheck}; logs (build.txt, samples.csv, harness_check.txt)
# go to $OUT when set, else the build folder.  --build-only stops after
# step 3 (works without a GPU).
#
# Exit: harness_check's (0 all as expected, 1 some not, 2 setup), 1 when a
# build fails, 77 no nvcc or no GPU ("skip: ...").
set -u
cd "$(dirname "$0")/../.." || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
B=${HC_BUILD:-build/hcheck}
LOGS=${OUT:-$B}
CC=${CC:-cc}
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi

if [ ! -x "$NVCC" ]; then echo "skip: no nvcc"; exit 77; fi
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
mkdir -p "$B/hk" "$LOGS" || exit 1
: >"$LOGS/build.txt"

pids=()
if [ -z "${HC_HARNESS:-}" ]; then
	HC_HARNESS=$B/libevident_cuda.so
	"$NVCC" -O3 -std=c++17 -shared \
		-Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra,-Werror,-Wno-unused-parameter \
		-cudart shared -arch="$ARCH" -I"$CUDA_HOME/extras/CUPTI/include" \
		-Xlinker -rpath -Xlinker "$CUDA_HOME/lib64" -o "$HC_HARNESS" \
		src/backends/cuda/harness.cu src/backends/cuda/seal.cu -L"$CUDA_HOME/lib64/stubs" -lcuda \
		-lcublas -ldl -lpthread >"$B/harness.log" 2>&1 &
	pids+=($!)
fi
for f in tests/gpu/hk/*.cu; do
	n=$(basename "$f" .cu)
	"$NVCC" -O3 -shared -Xcompiler -fPIC -cudart shared -arch="$ARCH" -I kernels \
		-Xlinker -rpath -Xlinker "$CUDA_HOME/lib64" -o "$B/hk/$n.so" "$f" -lpthread \
		>"$B/hk/$n.log" 2>&1 &
	pids+=($!)
done
$CC -O2 -std=c11 -Wall -Wextra -Werror -o "$B/harness_check" tests/gpu/harness_check.c \
	-ldl -lm >"$B/harness_check.log" 2>&1 &
pids+=($!)
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
cat "$B"/*.log "$B"/hk/*.log >>"$LOGS/build.txt" 2>/dev/null
if [ $failed -ne 0 ]; then
	echo "harness_check.sh: a build failed (log: $LOGS/build.txt)"
	tail -40 "$LOGS/build.txt"
	exit 1
fi
echo "harness_check.sh: built $HC_HARNESS, $(ls "$B"/hk/*.so | wc -l) kernels, $B/harness_check"
[ $build_only -eq 1 ] && exit 0

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip: no GPU"; exit 77
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
	--format=csv,noheader
"$B/harness_check" --csv "$LOGS/samples.csv" "$@" "$HC_HARNESS" "$B/hk" \
	>"$LOGS/harness_check.txt" 2>&1
rc=$?
cat "$LOGS/harness_check.txt"
exit $rc
