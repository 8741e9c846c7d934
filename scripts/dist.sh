#!/usr/bin/env bash
# dist.sh - make a self-contained, relocatable runner directory for GPU
# hosts that have the NVIDIA driver and CUDA toolkit but not the Debian
# libraries evident builds against (libgit2, GSL, libyaml, ...).
#
#   scripts/dist.sh OUTDIR BIN [HARNESS]
#
# OUTDIR/bin/evident, OUTDIR/bin/evident-worker (the lean executable a
# job execs, src/cli/worker_main.c: the one beside BIN, which `make`
# builds with it), OUTDIR/lib/libevident_cuda.so and, in OUTDIR/lib,
# every shared library `ldd BIN` lists except glibc's own (the host's must
# be used: they go with its ld.so) and the CUDA/NVIDIA ones (they must
# match the host's driver and toolkit).  bin/evident is linked with
# -Wl,-rpath,$ORIGIN/../lib, a DT_RUNPATH, which the loader applies to the
# binary's direct dependencies only: libgit2's own (libmbedtls, libssh2,
# ...) would still be looked up in the system and not be found on the GPU
# host (seen on the H100: "libmbedtls.so.14: cannot open shared object
# file").  So every copied library gets RUNPATH $ORIGIN with patchelf
# (Debian package patchelf), and the result is checked with ldd: every
# non-glibc, non-CUDA library must resolve inside OUTDIR/lib.  glibc here
# (Debian 12) is 2.36, older than the GPU host's (Ubuntu 24.04, 2.39), so
# binaries built here run there.
set -euo pipefail
out=${1:?usage: dist.sh OUTDIR BIN [HARNESS]}
bin=${2:?usage: dist.sh OUTDIR BIN [HARNESS]}
harness=${3:-}

# glibc's libraries and the loader: never copied
skip_re='^(libc|libm|libdl|libpthread|librt|libresolv|libutil|libnsl|libanl|ld-linux-x86-64|ld-linux-aarch64|linux-vdso|libmvec|libBrokenLocale|libnss_.*)\.so'
# the CUDA toolkit's and driver's libraries: the host's own must be used
cuda_re='^(libcuda|libcudart|libcublas|libcublasLt|libcudnn.*|libnvidia-.*|libnvrtc.*|libnvJitLink|libcufft.*|libcurand|libcusparse|libcusolver.*|libnccl)\.so'

command -v patchelf >/dev/null 2>&1 ||
	{ echo "dist: patchelf not found (apt-get install patchelf)" >&2; exit 6; }
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$bin" "$out/bin/evident"
worker=$(dirname "$bin")/evident-worker
[ -x "$worker" ] || { echo "dist: $worker not found (make builds it beside $bin)" >&2; exit 1; }
cp "$worker" "$out/bin/evident-worker"
copied=()
# copy_libs BIN: every non-glibc, non-CUDA library `ldd BIN` names, into lib/
copy_libs() {
while read -r name arrow path _; do
	[ "$arrow" = "=>" ] || continue
	[ -f "$path" ] || { echo "dist: $name is not found by ldd (is it installed?)" >&2; exit 1; }
	if [[ $name =~ $skip_re ]] || [[ $name =~ $cuda_re ]] || [ -f "$out/lib/$name" ]; then
		continue # glibc, CUDA, or copied for an earlier binary
	fi
	cp -L "$path" "$out/lib/$name"
	chmod u+w "$out/lib/$name"
	patchelf --set-rpath '$ORIGIN' "$out/lib/$name"
	copied+=("$name")
done < <(ldd "$1")
}
copy_libs "$bin"
copy_libs "$worker" # a subset of BIN's (-Wl,--as-needed): nothing new
# bubblewrap, the sandbox every worker runs in (src/base/sandbox.h): the
# runner looks for it beside itself first; its libraries go to lib/ too
bw=$(command -v bwrap || true)
[ -n "$bw" ] || { echo "dist: bwrap not found (apt-get install bubblewrap): workers need it" >&2; exit 1; }
# only the Debian package's, unchanged (its MD5 as dpkg lists it): the
# runner accepts the dist's bwrap by the SHA-256 written below
# (src/base/sandbox_tool.c), so this is where its identity starts
bwreal=$(realpath "$bw")
want=
for list in /var/lib/dpkg/info/bubblewrap.md5sums /var/lib/dpkg/info/bubblewrap:*.md5sums; do
	[ -f "$list" ] && want=$(awk -v f="${bwreal#/}" '$2 == f { print $1 }' "$list") && [ -n "$want" ] && break
done
[ -n "$want" ] && [ "$(md5sum <"$bwreal" | cut -d' ' -f1)" = "$want" ] ||
	{ echo "dist: $bwreal is not the Debian package bubblewrap's file as dpkg lists it (apt-get install --reinstall bubblewrap)" >&2; exit 1; }
cp "$bw" "$out/bin/bwrap"
chmod u+w "$out/bin/bwrap"
patchelf --set-rpath '$ORIGIN/../lib' "$out/bin/bwrap"
mkdir -p "$out/share/evident"
(cd "$out" && sha256sum bin/bwrap) >"$out/share/evident/bwrap.sha256"
# the runner accepts it by the hash compiled into it (scripts/bwrap-known.sh,
# build/gen/bwrap_known.h beside the build's bin/): the same bytes, or the
# dist is refused where it runs, so say it here
gen=$(dirname "$(dirname "$bin")")/build/gen/bwrap_known.h
if [ -f "$gen" ]; then
	known=$(sed -n 's/^#define EVIDENT_BWRAP_DIST_SHA256 "\([0-9a-f]*\)"$/\1/p' "$gen")
	[ "$known" = "$(sha256sum <"$out/bin/bwrap" | cut -d' ' -f1)" ] ||
		{ echo "dist: bin/bwrap's SHA-256 is not the one $bin was built to accept ($gen: '${known}'); rebuild it: rm -f $gen && make dist" >&2; exit 1; }
fi
copy_libs "$bw"
if [ -n "$harness" ]; then
	cp "$harness" "$out/lib/libevident_cuda.so"
fi
# the rpath must be $ORIGIN-relative, or the copies would be bypassed
for b in evident evident-worker; do
	if ! readelf -d "$out/bin/$b" | grep -q 'R.*PATH.*\$ORIGIN/../lib'; then
		echo "dist: bin/$b lacks the \$ORIGIN/../lib rpath (see LDFLAGS in the Makefile)" >&2
		exit 1
	fi
done
# every library the loader picks must now come from lib/ (or be glibc/CUDA)
libdir=$(realpath "$out/lib")
outside=$(cat <(ldd "$out/bin/evident") <(ldd "$out/bin/evident-worker") <(ldd "$out/bin/bwrap") | awk '$2 == "=>" { print $1, $3 }' | while read -r name path; do
	[[ $name =~ $skip_re ]] || [[ $name =~ $cuda_re ]] || [[ $(realpath "$path") == "$libdir/"* ]] ||
		echo "$name => $path"
done)
if [ -n "$outside" ]; then
	echo "dist: these libraries would still come from the build machine's system:" >&2
	echo "$outside" >&2
	exit 1
fi
{
	echo "evident runner for GPU hosts, built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(ldd --version | head -1))."
	echo "Run it from the repository checkout: dist/evident/bin/evident run experiments/NAME.yaml"
	echo "lib/ holds libevident_cuda.so and copies of: ${copied[*]:-nothing}."
	echo "The host provides glibc, the NVIDIA driver and the CUDA toolkit (nvcc, libcudart, cuBLAS)."
} >"$out/README"
echo "dist: $out (bin/evident, bin/evident-worker, bin/bwrap, $((${#copied[@]})) libraries${harness:+, the CUDA harness})"
