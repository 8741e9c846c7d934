#!/usr/bin/env bash
# check-kernels.sh - compile every kernel for sm_80 and sm_90 without a GPU
# (the llm.c habit: CI compiles kernels on machines without one) and print
# the compiler's resource report as a table.
#
#   NVCC=... [JOBS=N] scripts/check-kernels.sh OUTDIR FILE.cu...
#
# Each FILE is compiled with the flags the cuda backend uses
# (-O3 -shared -Xcompiler -fPIC -cudart shared -Xptxas -v) into
# OUTDIR/<path with / as _>__<arch>.so, its log beside it (.log).  Files
# with a `// evident: arch sm_XXa` line are compiled for that arch only
# (never for sm_80); files with `// evident: libs a b` link -la -lb.  A
# tunable kernel is compiled with its defaults.  Compiles run JOBS at a
# time (default: the number of CPUs).  Exit 1 if any compile fails.
#
# A unit whose inputs are those of its last compile here is not compiled
# again (make test runs this every time; its 51 compiles cost a 2-CPU machine
# three minutes of CPU).  Its inputs' key - the sha256 of nvcc's and the
# host compiler's versions, this script, the unit's arch and libraries,
# and the content of its .cu and of every file it includes, directly or
# not, by #include "..." (looked up beside the including file, then in
# kernels/, the -I directory; a <...> include found in kernels/ too) - is
# kept in OUTDIR/<unit>.key beside the .so, .log and .status of that
# compile; the table is read from the kept log either way.  An include
# found in neither place is the toolkit's or the system's, which the
# compilers' versions stand for.  So a change to one header recompiles
# the units that include it, not all 51 (the key once held every header
# under kernels/ problems/ tests/fixtures/ src/, and missed a .cu
# included by another: tools/fa_wgmma_check.cu includes fa_wgmma2.cu).
# KCHECK_FRESH=1 (or removing OUTDIR) compiles every unit.
set -uo pipefail
out=${1:?usage: check-kernels.sh OUTDIR FILE.cu...}
shift
nvcc=${NVCC:-nvcc}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
mkdir -p "$out"
fmt='%-44s %-7s %-44s %5s %7s %6s %8s %8s %s\n'

units=() # "file arch base"
for f in "$@"; do
	directive_arch=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*arch[[:space:]]\{1,\}\([a-z0-9_]*\).*|\1|p' "$f" | head -1)
	if [ -n "$directive_arch" ]; then archs=("$directive_arch"); else archs=(sm_80 sm_90); fi
	for a in "${archs[@]}"; do
		units+=("$f $a $out/$(echo "${f%.cu}" | tr / _)__$a")
	done
done

# the inputs every unit shares: the compilers, this script
common_key=$(
	{
		"$nvcc" --version 2>&1
		gcc --version 2>&1 | head -1
		g++ --version 2>&1 | head -1
		sha256sum <"$0"
	} | sha256sum | cut -c1-64
)

# includes FILE: FILE and every file it includes, directly or not, by
# #include "..." (beside the including file, else in kernels/) or <...>
# (in kernels/), one path a line, each once, FILE first
includes() {
	local -a todo=("$1")
	local -A seen=()
	local f inc d p
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]} todo=("${todo[@]:1}")
		[ -n "${seen[$f]:-}" ] && continue
		seen[$f]=1
		echo "$f"
		d=$(dirname "$f")
		while read -r inc; do
			for p in "$d/$inc" "kernels/$inc"; do
				[ -f "$p" ] || continue
				case $p in *..*) p=$(realpath -m --relative-to=. "$p") ;; esac
				todo+=("$p")
				break
			done
		done < <(sed -n -e 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*|\1|p' \
			-e 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*|\1|p' "$f")
	done
}

compile() { # file arch base
	local f=$1 a=$2 base=$3 aflag libs l key
	local -a lflags=()
	libs=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*libs[[:space:]]\{1,\}\(.*\)|\1|p' "$f" | head -1)
	for l in $libs; do lflags+=("-l$l"); done
	case $a in
	*a | *f) aflag="-gencode=arch=compute_${a#sm_},code=$a" ;;
	*) aflag="-arch=$a" ;;
	esac
	key=$({ echo "$common_key $a ${lflags[*]}"; includes "$f" | xargs -r -d '\n' sha256sum; } | sha256sum | cut -c1-64)
	if [ "${KCHECK_FRESH:-}" != 1 ] && [ "$(cat "$base.key" 2>/dev/null)" = "$key" ] &&
		[ "$(cat "$base.status" 2>/dev/null)" = ok ] && [ -s "$base.log" ] && [ -f "$base.so" ]; then
		return 0
	fi
	rm -f "$base.key"
	if "$nvcc" -O3 -shared -Xcompiler -fPIC -cudart shared "$aflag" -Xptxas -v -Ikernels \
		-o "$base.so" "$f" "${lflags[@]}" >"$base.log" 2>&1; then
		echo ok >"$base.status"
		echo "$key" >"$base.key"
	else
		echo FAILED >"$base.status"
	fi
	echo "$base" >>"$out/.compiled"
}

rm -f "$out/.compiled"
running=0
for u in "${units[@]}"; do
	# shellcheck disable=SC2086
	compile $u &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
compiled=$(cat "$out/.compiled" 2>/dev/null | wc -l)
rm -f "$out/.compiled"

fail=0
printf "$fmt" file arch function regs smem stack spill_st spill_ld status
for u in "${units[@]}"; do
	read -r f a base <<<"$u"
	status=$(cat "$base.status" 2>/dev/null || echo FAILED)
	rows=$(awk '
		/Compiling entry function/ { match($0, /function .[^'"'"']*/); fn = substr($0, RSTART + 10, RLENGTH - 10) }
		/bytes stack frame/ { if (fn != "") { split($0, w, " "); stack = w[1]; ss = w[5]; sl = w[9] } }
		/Used [0-9]+ registers/ { if (fn != "") { match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5);
			smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11);
			printf "%s\t%s\t%s\t%s\t%s\t%s\n", fn, regs, smem, stack, ss, sl; fn = "" } }
	' "$base.log")
	if [ -n "$rows" ]; then
		while IFS=$'\t' read -r fn regs smem stack ss sl; do
			printf "$fmt" "$f" "$a" "$fn" "$regs" "$smem" "$stack" "$ss" "$sl" "$status"
		done <<<"$rows"
	else
		printf "$fmt" "$f" "$a" - - - - - - "$status"
	fi
	if [ "$status" != ok ]; then
		fail=1
		echo "check-kernels: $f ($a) failed to compile (log: $base.log):" >&2
		grep -E 'error|fatal' "$base.log" | head -5 | sed 's/^/    /' >&2
	fi
done
echo "check-kernels: ${#units[@]} units, $compiled compiled now, $((${#units[@]} - compiled)) unchanged since their last compile here"
exit $fail
