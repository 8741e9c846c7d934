#!/usr/bin/env bash
# run-unit-tests.sh - runs each cmocka test binary given on the command line
# and fails if any fails.  Each binary prints cmocka's own summary.
#
# The binaries run UNIT_JOBS at a time (default: the number of CPUs), each
# with its output in a file, printed whole under its "== BINARY" line once
# it and every binary before it have ended, so the log reads as a
# one-at-a-time run would.  With CLI_LOCK=FILE (make test sets it) each
# holds FILE shared with flock(1), as tests/cli/run.sh's tests do, so a CLI
# test that must run alone never runs beside them.
#
# The closing lines are "failed: BINARY..." (when one failed) and
# "unit: N passed, N failed, N skipped", summed from
# cmocka's summaries; a binary that exits non-zero with no failed test in
# its summary (a crash, a sanitizer report at exit) counts as one more
# failed test.  TEST_COUNTS=FILE appends "unit PASSED FAILED SKIPPED"
# there; TEST_TIMES=FILE appends "SECONDS NAME CPU" per binary (CPU: its
# user + sys seconds).  With UNIT_ORDER=FILE, lines "SECONDS NAME" as
# TEST_TIMES writes them (an earlier run's), the binaries start longest
# first, those it does not know (new ones) before them, so a long one does
# not start last (make test: test_stats_hier, a fifth of the unit tests'
# time, came last in name order); the output stays in the given order.
set -u
jobs=${UNIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-unit-tests.sh: UNIT_JOBS is '$jobs', expected a whole number of at least 1" >&2; exit 2; }
lock=${CLI_LOCK:-}
if [ -n "$lock" ] && ! command -v flock >/dev/null; then
	echo "run-unit-tests.sh: CLI_LOCK is set but flock(1) is not installed (util-linux); running without it" >&2
	lock=
fi
res=$(mktemp -d "${TMPDIR:-/tmp}/evident-unit-run.XXXXXX") || { echo "run-unit-tests.sh: mktemp failed" >&2; exit 2; }
trap 'rm -rf "$res"' EXIT
bins=("$@")
n=${#bins[@]}

# run_one I, in a subshell of its own: binary I, holding the lock shared on
# descriptor 9 (which the binary does not inherit), output to $res/I.out,
# then its exit status to $res/I.rc (renamed into place: an .rc is whole)
run_one() {
	local start rc
	if [ -n "$lock" ]; then
		exec 9>>"$lock" && flock -s 9 || echo "run-unit-tests.sh: cannot lock '$lock'; running without it" >&2
	fi
	start=$EPOCHREALTIME
	"${bins[$1]}" >"$res/$1.out" 2>&1 </dev/null 9>&-
	rc=$?
	# times' second line: this subshell's children's CPU, the binary's
	# (fork started it at 0; flock adds milliseconds)
	times >"$res/$1.cpu"
	[ -n "${TEST_TIMES:-}" ] && awk -v a="$start" -v b="$EPOCHREALTIME" -v t="$(basename "${bins[$1]}")" '
		function s(x) { split(x, p, "m"); return p[1] * 60 + p[2] }
		NR == 2 { cpu = s($1) + s($2) }
		END { printf "%.1f %s %.1f\n", b - a, t, cpu }' "$res/$1.cpu" >>"$TEST_TIMES"
	echo $rc >"$res/$1.rc.tmp" && mv "$res/$1.rc.tmp" "$res/$1.rc"
}

pass=0 failn=0 skip=0 fail=0 failed=()
# cmocka 1.1, once per group: "[  PASSED  ] N test(s)."
# "[  SKIPPED ] N test(s), listed below:" "[  FAILED  ] N test(s), listed below:"
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) test(s).*/\1/p" "$2" | awk '{ s += $1 } END { print s + 0 }'; }
report() {
	local i=$1 rc p f s
	echo "== ${bins[$i]}"
	cat "$res/$i.out"
	rc=$(cat "$res/$i.rc")
	p=$(count PASSED "$res/$i.out") f=$(count FAILED "$res/$i.out") s=$(count SKIPPED "$res/$i.out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "== ${bins[$i]} exited $rc with no failed test in its summary: counted as one failed test"
	fi
	pass=$((pass + p)) failn=$((failn + f)) skip=$((skip + s))
	[ "$rc" -eq 0 ] || { fail=1; failed+=("$(basename "${bins[$i]}")"); }
}
printed=0
flush() {
	while [ $printed -lt "$n" ] && [ -e "$res/$printed.rc" ]; do
		report $printed
		printed=$((printed + 1))
	done
}
ended() { local f k=0; for f in "$res"/*.rc; do [ -e "$f" ] && k=$((k + 1)); done; echo $k; }

# the order the binaries start in: indexes into bins; with UNIT_ORDER,
# those it does not know, then the others longest first
starts=()
if [ -n "${UNIT_ORDER:-}" ] && [ -s "$UNIT_ORDER" ] && [ "$n" -gt 0 ]; then
	while read -r i; do starts+=("$i"); done < <(
		for ((i = 0; i < n; i++)); do echo "$i $(basename "${bins[$i]}")"; done |
			awk 'NR == FNR { if ($1 + 0 > t[$2]) t[$2] = $1 + 0; next }
			     { printf "%s %012.1f %06d\n", $1, ($2 in t) ? t[$2] : 1e9, $1 }' "$UNIT_ORDER" - |
			sort -k2,2r -k3,3n | cut -d' ' -f1)
else
	for ((i = 0; i < n; i++)); do starts+=("$i"); done
fi

started=0
while [ $started -lt $n ]; do
	if [ $((started - $(ended))) -lt "$jobs" ]; then
		run_one "${starts[$started]}" &
		started=$((started + 1))
		continue
	fi
	wait -n
	flush
done
wait
flush
[ $fail -eq 0 ] || echo "failed: ${failed[*]}"
[ -n "${TEST_COUNTS:-}" ] && echo "unit $pass $failn $skip" >>"$TEST_COUNTS"
echo "unit: $pass passed, $failn failed, $skip skipped"
exit $fail
