#!/usr/bin/env bash
# check-kernels.sh - compile every kernel for sm_80 and sm_90 without a GPU
# (the llm.c habit: CI compiles kernels on machines without one) and print
# the compiler's resource report as a table.
#
#   NVCC=... [JOBS=N] scripts/check-kernels.sh OUTDIR FILE.cu...
#
# Each FILE is compiled with the flags the cuda backend uses
# (-shared -Xcompiler -fPIC -cudart shared -Xptxas -v) into
# OUTDIR/<path with / as _>.so (every arch's code in it), its log beside
# it (.log), but with -O0 where the backend says -O3: nvcc's -O is the
# host compiler's level alone (cicc and ptxas optimize the device code at
# their own default, -O3, unless -G), so the device code is the same
# (fa_mma.cu, cublas_attn.cu, problems/gemm.cu: each PTX and cubin byte
# for byte; every file: the whole table; CUDA 13.0, 2026-11-29), and an
# error is an error at any -O.  gcc's -O3 of the host side was 9 s of
# fa_wgmma_check.cu's 57 s of CPU (its 35 configurations' launchers) and
# about 0.1 s of a small file's 4 s.  Files with a `// evident: arch
# sm_XXa` line are compiled for that arch only (never for sm_80); files
# with `// evident: libs a b` link -la -lb.  A tunable kernel is
# compiled with its defaults.  Compiles run JOBS at a time (default: the
# number of CPUs).  Exit 1 if any compile fails.
#
# A file is compiled for all its archs in one nvcc call (-gencode for
# each): nvcc runs the device passes (preprocessing, cicc, ptxas) once per
# arch, as separate -arch calls did, but the host passes (preprocessing,
# cudafe++, the host compiler, the link) once, where they ran once per
# arch: they were a third of this script's CPU (24 files for two archs:
# 129 s of CPU as 48 compiles, 86 s as 24, on the project's 2-CPU
# machine, 2026-11-29).  Each arch's resource rows are read from ptxas's
# "for 'sm_XX'" lines of the one log.  When that compile fails, each arch
# is compiled again on its own (FILE__ARCH.log), so the table still says
# which arch failed; failures are rare, so this costs nothing otherwise.
# The largest file (with what it includes) is compiled first: the
# compiles' wall time is then near their CPU over JOBS; the table keeps
# the order of the arguments.
#
# A file whose inputs are those of its last compile here is not compiled
# again (make test runs this every time).  Its inputs' key - the sha256 of
# nvcc's and the host compiler's versions, this script, the file's archs
# and libraries, and the content of its .cu and of every file it includes,
# directly or not, by #include "..." (looked up beside the including file,
# then in kernels/, the -I directory; a <...> include found in kernels/
# too) - is kept in OUTDIR/<file>.key beside the .so, .log and .status of
# that compile; the table is read from the kept log either way.  An
# include found in neither place is the toolkit's or the system's, which
# the compilers' versions stand for.  So a change to one header recompiles
# the files that include it, not all of them (the key once held every
# header under kernels/ problems/ tests/fixtures/ src/, and missed a .cu
# included by another: tools/fa_wgmma_check.cu includes fa_wgmma3.cu).
# KCHECK_FRESH=1 (or removing OUTDIR) compiles every file.
set -uo pipefail
out=${1:?usage: check-kernels.sh OUTDIR FILE.cu...}
shift
nvcc=${NVCC:-nvcc}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
mkdir -p "$out"
fmt='%-44s %-7s %-44s %5s %7s %6s %8s %8s %s\n'

units=() # "0 file archs base", archs comma-separated: the table's order
# (the compiles' order, with the size of what each compiles: below)
for f in "$@"; do
	# the first directive (T skips a line without one; q ends at the first)
	directive_arch=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*arch[[:space:]]\{1,\}\([a-z0-9_]*\).*|\1|;T;p;q' "$f")
	archs=${directive_arch:-sm_80,sm_90}
	base=${f%.cu}
	units+=("0 $f $archs $out/${base//\//_}")
done

# the inputs every unit shares: the compilers, this script
common_key=$(
	{
		"$nvcc" --version 2>&1
		gcc --version 2>&1 | head -1
		g++ --version 2>&1 | head -1
		sha256sum <"$0"
	} | sha256sum
)
common_key=${common_key:0:64}

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
		# dirname's answer without its process (this VM's forks and execs
		# are most of this script's CPU when nothing is compiled)
		case $f in */*) d=${f%/*} d=${d:-/} ;; *) d=. ;; esac
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

# the largest first: the size of FILE and what it includes (the list of
# what it includes is walked once, here, and kept for its key in compile)
sized=()
declare -A includes_of=()
for u in "${units[@]}"; do
	read -r _ f rest <<<"$u"
	[ -n "${includes_of[$f]:-}" ] || includes_of[$f]=$(includes "$f")
	mapfile -t inc <<<"${includes_of[$f]}"
	sized+=("$(cat -- "${inc[@]}" | wc -c) $f $rest")
done
mapfile -t order < <(printf '%s\n' "${sized[@]}" | sort -k1,1nr -k2,2)

gencode() { # arch: its nvcc flag
	case $1 in
	*a | *f) echo "-gencode=arch=compute_${1#sm_},code=$1" ;;
	*) echo "-gencode=arch=compute_${1#sm_},code=[$1,compute_${1#sm_}]" ;; # -arch=$1
	esac
}

compile() { # file archs base
	local f=$1 archs=${2//,/ } base=$3 libs l key a
	local -a lflags=() gflags=() nv=() inc=()
	libs=$(sed -n 's|^[[:space:]]*//[[:space:]]*evident:[[:space:]]*libs[[:space:]]\{1,\}\(.*\)|\1|;T;p;q' "$f")
	for l in $libs; do lflags+=("-l$l"); done
	for a in $archs; do gflags+=("$(gencode "$a")"); done
	mapfile -t inc <<<"${includes_of[$f]}"
	key=$({ echo "$common_key $archs ${lflags[*]}"; sha256sum -- "${inc[@]}"; } | sha256sum)
	key=${key:0:64}
	# unchanged: the same key, and every arch of its last compile ok (read
	# with builtins: the execs of cat, cut and sort were most of a run's
	# CPU where nothing is compiled)
	local kept_key= st_ok=0 st_arch st_word st_rest
	[ -f "$base.key" ] && read -r kept_key <"$base.key"
	if [ -f "$base.status" ]; then
		st_ok=2 # no line yet: not ok
		while read -r st_arch st_word st_rest; do
			[ "$st_word" = ok ] && [ $st_ok != 0 ] && st_ok=1 || st_ok=0
		done <"$base.status"
	fi
	if [ "${KCHECK_FRESH:-}" != 1 ] && [ "$kept_key" = "$key" ] && [ $st_ok = 1 ] && [ -s "$base.log" ] && [ -f "$base.so" ]; then
		return 0
	fi
	rm -f "$base.key" "$base.status" "$base"__*.log "$base"__*.so
	nv=("$nvcc" -O0 -shared -Xcompiler -fPIC -cudart shared -Xptxas -v -Ikernels)
	# .status: a line "ARCH ok|FAILED LOG" for each arch, the log its rows are read from
	if "${nv[@]}" "${gflags[@]}" -o "$base.so" "$f" "${lflags[@]}" >"$base.log" 2>&1; then
		for a in $archs; do echo "$a ok $base.log"; done >"$base.status"
		echo "$key" >"$base.key"
	elif [ "${#gflags[@]}" = 1 ]; then
		echo "$archs FAILED $base.log" >"$base.status"
	else
		# which arch failed: each on its own; if none does, the compile of
		# them together failed, and so each arch of it
		local st all_ok=1
		for a in $archs; do
			if "${nv[@]}" "$(gencode "$a")" -o "${base}__$a.so" "$f" "${lflags[@]}" >"${base}__$a.log" 2>&1; then
				st=ok
			else
				st=FAILED all_ok=0
			fi
			echo "$a $st ${base}__$a.log"
		done >"$base.status"
		[ $all_ok = 0 ] || sed -i "s| ok .*| FAILED $base.log|" "$base.status"
	fi
	echo "$base" >>"$out/.compiled"
}

rm -f "$out/.compiled"
running=0
for u in "${order[@]}"; do
	# shellcheck disable=SC2086
	compile ${u#* } &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
compiled=$(cat "$out/.compiled" 2>/dev/null | wc -l)
rm -f "$out/.compiled"

fail=0 n=0
printf "$fmt" file arch function regs smem stack spill_st spill_ld status
for u in "${units[@]}"; do
	read -r _ f archs base <<<"$u"
	for a in ${archs//,/ }; do
		n=$((n + 1))
		status= log=
		if [ -f "$base.status" ]; then
			while read -r st_arch st_word st_rest; do
				[ "$st_arch" = "$a" ] && { status=$st_word log=$st_rest; break; }
			done <"$base.status"
		fi
		status=${status:-FAILED} log=${log:-$base.log}
		# this arch's rows: ptxas names the arch of each function it compiles
		rows=$(awk -v arch="$a" '
			/Compiling entry function/ { fn = ""; if (index($0, "for '"'"'" arch "'"'"'") == 0) next
				match($0, /function .[^'"'"']*/); fn = substr($0, RSTART + 10, RLENGTH - 10) }
			/bytes stack frame/ { if (fn != "") { split($0, w, " "); stack = w[1]; ss = w[5]; sl = w[9] } }
			/Used [0-9]+ registers/ { if (fn != "") { match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5);
				smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11);
				printf "%s\t%s\t%s\t%s\t%s\t%s\n", fn, regs, smem, stack, ss, sl; fn = "" } }
		' "$log" 2>/dev/null)
		if [ -n "$rows" ]; then
			while IFS=$'\t' read -r fn regs smem stack ss sl; do
				printf "$fmt" "$f" "$a" "$fn" "$regs" "$smem" "$stack" "$ss" "$sl" "$status"
			done <<<"$rows"
		else
			printf "$fmt" "$f" "$a" - - - - - - "$status"
		fi
		if [ "$status" != ok ]; then
			fail=1
			echo "check-kernels: $f ($a) failed to compile (log: $log):" >&2
			grep -E 'error|fatal' "$log" 2>/dev/null | head -5 | sed 's/^/    /' >&2
		fi
	done
done
echo "check-kernels: $n units in ${#units[@]} compiles (a file's archs in one), $compiled compiled now, $((${#units[@]} - compiled)) unchanged since their last compile here"
exit $fail
