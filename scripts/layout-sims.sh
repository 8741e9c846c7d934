#!/usr/bin/env bash
# layout-sims.sh - build and run the host-side layout simulators of the
# tensor-core kernels (no GPU needed): tests/gpu/mma_layout_sim.cu checks
# fa_mma's mma.sync fragment math, tests/gpu/wgmma_layout_sim.cu checks
# fa_wgmma's shared-memory layout, wgmma descriptors and fragments, each
# against an emulation of the PTX ISA's tables, and
# tests/gpu/wgmma_pipeline_sim.cu model-checks fa_wgmma's mbarrier/TMA
# pipeline.  make test-repo runs it where nvcc exists.
#
#   NVCC=... scripts/layout-sims.sh OUTDIR
#
# Prints each simulator's lines; exit 1 if one fails to build or reports a
# mismatch.  A simulator whose sources are those of its last good build in
# OUTDIR is not rebuilt (the key is the sha256 of nvcc's version, this
# script, its .cu and every file that includes by "...", directly or not:
# the wgmma simulators include fa_wgmma2.cu, which the key once missed,
# naming fa_wgmma.cu instead).  wgmma_pipeline_sim is built with -O1 (the
# host compiler's; the device code is optimized as always): its model
# check took 19 s of CPU built without it (nvcc's default, the host's -O0)
# and takes 4 s with it, for 5 s more of compiling (2026-11-29, the
# project's 2-CPU machine; its lines are the same, byte for byte).  Nor is one run again whose
# binary and the shared libraries it loads are, byte for byte, those of
# its last passing run in OUTDIR: a simulator takes no input, reads no
# clock and draws from fixed seeds, so that run's lines, kept in
# OUTDIR/NAME.out, are what it would print (wgmma_pipeline_sim's model
# check costs 14 s of CPU, a fifth of make test's repository checks).
# LAYOUT_SIMS_FRESH=1 runs them all.
set -uo pipefail
out=${1:?usage: layout-sims.sh OUTDIR}
nvcc=${NVCC:-nvcc}
mkdir -p "$out" || exit 1
fail=0
# includes FILE: FILE and every file it includes by #include "..." (beside
# the including file), directly or not, one path a line, each once
includes() {
	local -a todo=("$1")
	local -A seen=()
	local f inc
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]} todo=("${todo[@]:1}")
		[ -n "${seen[$f]:-}" ] && continue
		seen[$f]=1
		echo "$f"
		while read -r inc; do
			[ -f "$(dirname "$f")/$inc" ] && todo+=("$(realpath -m --relative-to=. "$(dirname "$f")/$inc")")
		done < <(sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*|\1|p' "$f")
	done
}
sim() { # name source nvcc-flags...
	local name=$1 src=$2 key
	shift 2
	key=$({ "$nvcc" --version 2>&1; echo "$*"; sha256sum "$0"; includes "$src" | xargs -r -d '\n' sha256sum; } | sha256sum | cut -c1-64)
	if [ "$(cat "$out/$name.key" 2>/dev/null)" != "$key" ] || [ ! -x "$out/$name" ]; then
		rm -f "$out/$name.key"
		if ! "$nvcc" "$@" -Ikernels -o "$out/$name" "$src" >"$out/$name.log" 2>&1; then
			echo "layout-sims: $src failed to build (log: $out/$name.log):" >&2
			grep -E 'error' "$out/$name.log" | head -5 | sed 's/^/    /' >&2
			fail=1
			return
		fi
		echo "$key" >"$out/$name.key"
	fi
	# the run's key: the binary and the libraries the loader gives it
	key=$({ sha256sum <"$out/$name"; ldd "$out/$name" 2>/dev/null | sed -n 's|.*=> \(/[^ ]*\).*|\1|p' |
		LC_ALL=C sort | xargs -r sha256sum; } | sha256sum | cut -c1-64)
	if [ "${LAYOUT_SIMS_FRESH:-}" != 1 ] && [ "$(cat "$out/$name.pass" 2>/dev/null)" = "$key" ] && [ -s "$out/$name.out" ]; then
		cat "$out/$name.out"
		echo "layout-sims: $name unchanged since its last passing run here (its lines above; LAYOUT_SIMS_FRESH=1 runs it)"
		return
	fi
	rm -f "$out/$name.pass"
	if "$out/$name" >"$out/$name.out"; then
		cat "$out/$name.out"
		echo "$key" >"$out/$name.pass"
	else
		cat "$out/$name.out"
		echo "layout-sims: $name reported a mismatch" >&2
		fail=1
	fi
}
sim mma_layout_sim tests/gpu/mma_layout_sim.cu -arch=sm_80
sim wgmma_layout_sim tests/gpu/wgmma_layout_sim.cu -gencode=arch=compute_90a,code=sm_90a
sim wgmma_pipeline_sim tests/gpu/wgmma_pipeline_sim.cu -O1 -gencode=arch=compute_90a,code=sm_90a
exit $fail
