#!/usr/bin/env bash
# check-kernels.sh - compile every kernel for sm_80 and sm_90 without a GPU
# (the llm.c habit: CI compiles kernels on machines without one) and print
# the compiler's resource report as a table.
#
#   NVCC=... scripts/check-kernels.sh OUTDIR FILE.cu...
#
# Each FILE is compiled with the flags the cuda backend uses
# (-O3 -shared -Xcompiler -fPIC -cudart shared -Xptxas -v) into
# OUTDIR/<path with / as __>.<arch>.so, its log beside it.  Files with a
# `// evident: arch sm_XXa` line are compiled for that arch only.  Files
# with a `// evident: libs a b` line link -la -lb.  A tunable kernel is
# compiled with its defaults.  Exit 1 if any compile fails.
set -uo pipefail
out=${1:?usage: check-kernels.sh OUTDIR FILE.cu...}
shift
nvcc=${NVCC:-nvcc}
mkdir -p "$out"
fail=0
rows=()
for f in "$@"; do
	directive_arch=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*arch[[:space:]]\+\([a-z0-9_]*\).*|\1|p' "$f" | head -1)
	libs=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*libs[[:space:]]\+\(.*\)|\1|p' "$f" | head -1)
	lflags=()
	for l in $libs; do lflags+=("-l$l"); done
	if [ -n "$directive_arch" ]; then archs=("$directive_arch"); else archs=(sm_80 sm_90); fi
	for a in "${archs[@]}"; do
		case $a in
		*a|*f) aflag="-gencode=arch=compute_${a#sm_},code=$a" ;;
		*) aflag="-arch=$a" ;;
		esac
		base="$out/$(echo "${f%.cu}" | tr / _)__$a"
		if "$nvcc" -O3 -shared -Xcompiler -fPIC -cudart shared "$aflag" -Xptxas -v \
			-Ikernels -o "$base.so" "$f" "${lflags[@]}" >"$base.log" 2>&1; then
			status=ok
		else
			status=FAILED
			fail=1
			echo "check-kernels: $f ($a) failed to compile:" >&2
			grep -E 'error|fatal' "$base.log" | head -5 | sed 's/^/    /' >&2
		fi
		# one row per entry function from the ptxas report
		while IFS=$'\t' read -r fn regs smem stack ss sl; do
			rows+=("$(printf '%-44s %-6s %-40s %5s %7s %6s %6s %6s %s' "$f" "$a" "$fn" "$regs" "$smem" "$stack" "$ss" "$sl" "$status")")
		done < <(awk '
			/Compiling entry function/ { match($0, /function .[^'"'"']*/); fn = substr($0, RSTART + 10, RLENGTH - 10); entry = 1 }
			/Function properties for/ { if (!entry) fn = ""; }
			/bytes stack frame/ { if (fn != "") { split($0, w, " "); stack = w[1]; ss = w[5]; sl = w[9] } }
			/Used [0-9]+ registers/ { if (fn != "") { match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5);
				smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11);
				printf "%s\t%s\t%s\t%s\t%s\t%s\n", fn, regs, smem, stack, ss, sl; fn = ""; entry = 0 } }
		' "$base.log")
		[ "$status" = FAILED ] && rows+=("$(printf '%-44s %-6s %-40s %5s %7s %6s %6s %6s %s' "$f" "$a" "-" "-" "-" "-" "-" "-" FAILED)")
	done
done
printf '%-44s %-6s %-40s %5s %7s %6s %6s %6s %s\n' file arch function regs smem stack spill_st spill_ld status
printf '%s\n' "${rows[@]}"
exit $fail
