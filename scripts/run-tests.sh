#!/usr/bin/env bash
# run-tests.sh - `make test`: builds what the tests need, then runs the
# checks of the committed repository, the unit and CLI tests, and the unit
# and CLI tests again under ASan+UBSan, and ends with one line that sums
# them all: "test: N passed, N failed, N skipped".
#
#   MAKE=make scripts/run-tests.sh        (the Makefile's `test` runs it)
#
# First the runner and the unit test binaries are built (make -jNCPU
# test-build).  Then five streams run at once, each into its own log:
#   repo      make test-repo (verify, paper, audit, check-kernels)
#   unit      make test-unit
#   cli       make test-cli
#   san-unit  make SAN=1 test-build, then make SAN=1 test-unit
#   san-cli   make SAN=1 test-cli, once that build is done
# and the logs are shown in that order, each as it is written once the ones
# before it have ended, so the output reads as a one-after-another run
# would.  Most CLI tests wait on sleeps, child processes or a Slurm
# cluster, so running them beside the rest keeps the CPUs busy.  The CLI
# tests that race the clock or other processes (lib.sh's runs_alone) run
# once everything else has ended, two at a time from both passes, a CPU
# each (a runs_alone_machine test with the machine to itself; two
# runs_alone_light tests, which mostly sleep, share one): each CLI
# pass creates its CLI_SIDE_DONE file when its tests beside others have
# ended, and CLI_ALONE_GO is created here once every stream has ended or
# done that (see tests/cli/run.sh).
#
# Each CLI test runs in one of the two CLI passes (CLI_ONCE=1, see
# tests/cli/run.sh): those of tests/cli/san-skip.txt and those that need
# the plain build (lib.sh's plain_pass_only, plain_pass) in the plain
# pass, every other test in the sanitized pass, which makes all the checks
# the plain pass would and watches the lines it runs with ASan+UBSan.
# CLI_BOTH=1 make test runs them as before this split: every CLI test in
# the plain pass, and those san-skip.txt does not list sanitized too.
# The count at the end counts each CLI test once (with CLI_BOTH=1, twice).
#
# Each suite appends its count to its stream's TEST_COUNTS and each test
# its time and CPU to TEST_TIMES.  The closing lines are the failures (if
# any), the times (the build, each stream, the slowest tests, the load
# average before and after), the CPU (all of make test's, user and sys,
# and the tests that used most), then the count.  A failure that no suite counted (a
# build, a suite that died before its count) counts as one failed test and
# is named.  The CLI tests' times are kept in build/test-times-{plain,san}
# and the next run starts the longest first (CLI_ORDER); the unit
# binaries' in build/test-times-unit and -san-unit (UNIT_ORDER, the
# same), the repository checks' in build/test-times-repo.
#
# Inside t0040's clone (EVIDENT_QUICKSTART_INNER set: README's Quick start,
# twice) `make test` is the smoke run that proves the Quick start works:
# the build of the runner and of every unit test binary, the repository
# checks (less check-kernels) and the Makefile's SMOKE_UNIT and SMOKE_CLI,
# without the san- streams; the outer make test runs everything on the
# same tree.
#
# Exit status 0 when nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 2
make=${MAKE:-make}
jobs=$(nproc 2>/dev/null || echo 2)
inner=${EVIDENT_QUICKSTART_INNER:-}
t_start=$EPOCHREALTIME
load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
logs=$(mktemp -d "${TMPDIR:-/tmp}/evident-make-test.XXXXXX") || { echo "run-tests.sh: mktemp failed" >&2; exit 2; }
trap 'rm -rf "$logs" 2>/dev/null' EXIT # (on Ctrl-C a stream may still write its .end)
mkdir -p build || exit 2
export CLI_LOCK=$PWD/build/test.lock CLI_ALONE_GO=$logs/alone-go
unset TEST_COUNTS TEST_TIMES CLI_ORDER UNIT_ORDER CLI_ONCE
# each CLI test once, in one pass (not in t0040's smoke run: no sanitized pass)
[ -z "$inner" ] && [ -z "${CLI_BOTH:-}" ] && export CLI_ONCE=1
# A -j of our own, unless make already shares its job slots with us.
par=(-j"$jobs")
[[ ${MAKEFLAGS:-} == *jobserver* ]] && par=()

# shared CMD...: CMD holding the lock shared (flock -o: what CMD leaves
# running does not hold it)
shared() {
	if command -v flock >/dev/null; then flock -o -s "$CLI_LOCK" "$@"; else "$@"; fi
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# --- the build -------------------------------------------------------------
"$make" --no-print-directory "${par[@]}" test-build
rc=$?
t_built=$EPOCHREALTIME
if [ $rc -ne 0 ]; then
	echo "failed: make test-build (exit $rc); no test ran"
	echo "test: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

# --- the streams -----------------------------------------------------------
names=(repo unit cli)
titles=("repository checks: make test-repo" "unit tests: make test-unit" "CLI tests: make test-cli")
[ -z "$inner" ] && {
	names+=(san-unit san-cli)
	titles+=("under ASan+UBSan: make SAN=1 test-build test-unit" "under ASan+UBSan: make SAN=1 test-cli")
}
# stream_body NAME: what stream NAME runs; each suite in it appends its
# count ("repo|unit|cli P F S") to TEST_COUNTS
stream_body() {
	case $1 in
	repo)
		# the audit and paper checks: CLI test t6013 runs them (the
		# Makefile's REPO_CLI_CHECKS); t0040's smoke run runs them itself
		if [ -z "$inner" ]; then
			shared "$make" --no-print-directory test-repo REPO_CLI_CHECKS=1
		else
			shared "$make" --no-print-directory test-repo
		fi
		;;
	unit)
		[ -s build/test-times-unit ] && export UNIT_ORDER=$PWD/build/test-times-unit
		"$make" --no-print-directory test-unit
		;;
	cli)
		[ -s build/test-times-plain ] && export CLI_ORDER=$PWD/build/test-times-plain
		"$make" --no-print-directory test-cli
		;;
	san-unit)
		shared "$make" --no-print-directory "${par[@]}" SAN=1 test-build
		rc=$?
		echo $rc >"$logs/san-built"
		if [ $rc -ne 0 ]; then
			echo "build 0 1 0" >>"$TEST_COUNTS"
			echo "failed: make SAN=1 test-build (exit $rc)"
			return $rc
		fi
		[ -s build/test-times-san-unit ] && export UNIT_ORDER=$PWD/build/test-times-san-unit
		"$make" --no-print-directory SAN=1 test-unit
		;;
	san-cli)
		until [ -s "$logs/san-built" ]; do sleep 1; done
		if [ "$(cat "$logs/san-built")" != 0 ]; then
			echo "build 0 0 0" >>"$TEST_COUNTS" # counted in san-unit
			echo "not run: the sanitized build failed"
			return 0
		fi
		[ -s build/test-times-san ] && export CLI_ORDER=$PWD/build/test-times-san
		"$make" --no-print-directory SAN=1 test-cli
		;;
	esac
}
# Stream I runs in a subshell of its own, into $logs/I.log, .counts and
# .times; when it has ended, however it ended, its exit status and the time
# are written to $logs/I.end.  That file, not `wait PID`, gives the status:
# a machine that runs this many processes (pid_max 32768 here) reuses the
# pid of a stream that ended minutes ago, and bash then forgets its status
# (wait said 127 once).
pids=()
for i in "${!names[@]}"; do
	: >"$logs/$i.log" && : >"$logs/$i.counts" || exit 2
	{
		(
			export TEST_COUNTS=$logs/$i.counts TEST_TIMES=$logs/$i.times CLI_SIDE_DONE=$logs/$i.side-done
			stream_body "${names[$i]}"
		) >>"$logs/$i.log" 2>&1 </dev/null
		echo "$? $EPOCHREALTIME" >"$logs/$i.end.tmp" && mv "$logs/$i.end.tmp" "$logs/$i.end"
	} &
	pids+=($!)
done

# nap SECONDS: sleep(1) without starting a process: read times out on a
# pipe no one writes to (opened both ways, so it never reads an end of
# file).  The waits below poll for the whole of make test, and a process
# costs about 10 ms of CPU on the project's VM (a PVM guest): a sleep(1)
# every half second was 2% of a CPU.  Opened after the streams started,
# so no test inherits it.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd" || :; }

# The barrier before the alone tests: CLI_ALONE_GO once every stream has
# ended or, a CLI pass, ended its tests beside others (it holds the time,
# which the times line shows: "alone tests from N s", after the build).
{
	for i in "${!names[@]}"; do
		until [ -e "$logs/$i.end" ] || [ -e "$logs/$i.side-done" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; do
			nap 0.5
		done
	done
	echo "$EPOCHREALTIME" >"$CLI_ALONE_GO.tmp" && mv "$CLI_ALONE_GO.tmp" "$CLI_ALONE_GO"
} &

# follow I: print stream I's log as it grows, to its end ($logs/I.end is
# written after everything the stream wrote to its log, then the stream's
# process exits).  A stream that has ended is printed whole; one still
# running is followed by tail -f, which waits on inotify and ends once
# the stream's process has gone (--pid, checked every 0.2 s), after a last
# read: one process for the stream, where a poll of stat(1) and sleep(1)
# every 0.2 s started ten a second (a tenth of a CPU on the project's VM,
# for the whole of make test).  A stream checked here as running cannot
# have its pid reused before tail looks at it (that takes pid_max
# processes).
follow() {
	local i=$1
	if [ -e "$logs/$i.end" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; then
		cat "$logs/$i.log"
	else
		tail -c +1 -s 0.2 --pid="${pids[$i]}" -f "$logs/$i.log"
	fi
}
rcs=() ends=()
for i in "${!names[@]}"; do
	echo "== ${titles[$i]}"
	follow "$i"
	read -r "rcs[$i]" "ends[$i]" <"$logs/$i.end" 2>/dev/null || { rcs[i]="unknown (it left no status)" ends[i]=; }
done
wait

# --- the count -------------------------------------------------------------
p=0 f=0 s=0 broken=() failures=() whys=()
for i in "${!names[@]}"; do
	sf=0
	while read -r _ a b c; do
		p=$((p + a)) f=$((f + b)) s=$((s + c)) sf=$((sf + b))
	done <"$logs/$i.counts"
	kind=${names[$i]#san-}
	if ! grep -q -e "^$kind " -e '^build ' "$logs/$i.counts"; then
		broken+=("${names[$i]}: ended (exit ${rcs[$i]}) without its count")
	elif [ "${rcs[$i]}" != 0 ] && [ $sf -eq 0 ]; then
		broken+=("${names[$i]}: exited ${rcs[$i]} with no failed test counted")
	fi
	while read -r line; do failures+=("${names[$i]}: ${line#failed: }"); done < <(grep '^failed: ' "$logs/$i.log")
	while read -r line; do whys+=("${names[$i]}: ${line#why }"); done < <(grep '^why t[0-9]' "$logs/$i.log")
done
f=$((f + ${#broken[@]}))

# --- the times ---------------------------------------------------------------
t_end=$EPOCHREALTIME
[ -s "$logs/2.times" ] && cp "$logs/2.times" build/test-times-plain
[ -s "$logs/0.times" ] && cp "$logs/0.times" build/test-times-repo
[ -s "$logs/1.times" ] && cp "$logs/1.times" build/test-times-unit
[ -n "$inner" ] || {
	[ -s "$logs/4.times" ] && cp "$logs/4.times" build/test-times-san
	[ -s "$logs/3.times" ] && cp "$logs/3.times" build/test-times-san-unit
}
line="times: build $(secs "$t_start" "$t_built") s"
for i in "${!names[@]}"; do
	line+=", ${names[$i]} $(secs "$t_built" "${ends[$i]:-$t_end}") s"
done
# the alone tests' barrier (the CLI tests that race the clock ran after it)
t_alone=$(cat "$CLI_ALONE_GO" 2>/dev/null)
[ -n "$t_alone" ] && line+=", alone tests from $(secs "$t_built" "$t_alone") s"
line+="; total $(secs "$t_start" "$t_end") s; load average $load_start before, $(cut -d' ' -f1 /proc/loadavg 2>/dev/null) after"
echo "$line"
slow=$(for i in "${!names[@]}"; do
	[ -s "$logs/$i.times" ] && awk -v s="${names[$i]}" '{ print $1, $2, s }' "$logs/$i.times"
done | sort -rn | head -6 | awk '{ printf "%s%s (%s) %s s", (NR > 1 ? ", " : ""), $2, $3, $1 }')
[ -n "$slow" ] && echo "slowest: $slow"
# The CPU: of everything this script ran and waited for (times' second
# line: its children's user and sys), and of the tests that used most
# (TEST_TIMES' third field).  On a shared machine the wall times above
# stretch with the load; these move far less.
times >"$logs/cpu"
cpu=$(awk 'function s(x) { split(x, p, "m"); return p[1] * 60 + p[2] }
	NR == 2 { printf "cpu: %.0f s (user %.0f s, sys %.0f s)", s($1) + s($2), s($1), s($2) }' "$logs/cpu")
most=$(for i in "${!names[@]}"; do
	[ -s "$logs/$i.times" ] && awk -v s="${names[$i]}" 'NF >= 3 { print $3, $2, s }' "$logs/$i.times"
done | sort -rn | head -6 | awk '{ printf "%s%s (%s) %s s", (NR > 1 ? ", " : ""), $2, $3, $1 }')
echo "$cpu${most:+; most: $most}"

for x in "${broken[@]}" "${failures[@]}"; do echo "failed: $x"; done
# each failed CLI test's first FAIL line, last: a log read by its tail
# (CI's) then says why, not only which
for x in "${whys[@]}"; do echo "why $x"; done
echo "test: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
