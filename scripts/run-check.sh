#!/usr/bin/env bash
# run-check.sh - runs one check of `make test-repo` (the store verifies,
# PAPER.md regenerates, the audit is clean, the kernels compile) and keeps
# its outcome in a tally file, so that the repository checks end, like the
# unit and CLI suites, with a count that make test adds up.
#
#   run-check.sh TALLY NAME CMD...       run CMD; print "ok   NAME" or
#                                        "FAIL NAME (exit N)"; exit 0
#   run-check.sh TALLY --skip NAME WHY   print "skip NAME (WHY)"
#   run-check.sh TALLY --total           print "failed: NAME..." if a check
#                                        failed, then "repo: N passed, N
#                                        failed, N skipped"; forget the
#                                        tally; exit 1 if a check failed
#
# Each check runs whatever came before it failed, so one broken check does
# not hide the others.  The Makefile keeps the checks' command lines (so
# `make -n test-repo` shows them); this script only counts.  With
# TEST_COUNTS=FILE, --total appends "repo PASSED FAILED SKIPPED" there;
# with TEST_TIMES=FILE each check appends "SECONDS NAME CPU" (CPU: the
# user + sys seconds of CMD and what it waited for), as the suites do.
set -u
tally=${1:?usage: run-check.sh TALLY NAME CMD... | TALLY --skip NAME WHY | TALLY --total}
shift
case ${1:-} in
--skip)
	echo "skip $2 (${3:-})"
	echo "skip $2" >>"$tally"
	;;
--total)
	p=0 f=0 s=0
	if [ -f "$tally" ]; then
		p=$(grep -c '^ok ' "$tally") f=$(grep -c '^fail ' "$tally") s=$(grep -c '^skip ' "$tally")
		[ "$f" -eq 0 ] || echo "failed: $(sed -n 's/^fail //p' "$tally" | tr '\n' ' ' | sed 's/ $//')"
	fi
	rm -f "$tally"
	[ -n "${TEST_COUNTS:-}" ] && echo "repo $p $f $s" >>"$TEST_COUNTS"
	echo "repo: $p passed, $f failed, $s skipped"
	[ "$f" -eq 0 ] || exit 1
	;;
*)
	name=$1
	shift
	start=$EPOCHREALTIME
	"$@"
	rc=$?
	if [ -n "${TEST_TIMES:-}" ]; then
		# times' second line: the children's CPU, CMD's (times in this
		# shell, not in a pipe's subshell, which has no children)
		cpu=$(mktemp) && times >"$cpu" && awk -v a="$start" -v b="$EPOCHREALTIME" -v t="$name" '
			function s(x) { split(x, p, "m"); return p[1] * 60 + p[2] }
			NR == 2 { printf "%.1f %s %.1f\n", b - a, t, s($1) + s($2) }' "$cpu" >>"$TEST_TIMES"
		rm -f "$cpu"
	fi
	if [ $rc -eq 0 ]; then
		echo "ok   $name"
		echo "ok $name" >>"$tally"
	else
		echo "FAIL $name (exit $rc)"
		echo "fail $name" >>"$tally"
	fi
	;;
esac
exit 0
