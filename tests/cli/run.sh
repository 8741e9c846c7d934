#!/usr/bin/env bash
# run.sh - runs the numbered command-line tests tests/cli/tNNNN-*.sh.
#
# Each test is one behaviour.  It runs with cwd set to a fresh temporary
# directory and these variables: EVIDENT (absolute path of the binary under
# test), REPO (repository root), TEST_TMP (the temporary directory).  It exits
# 0 when the behaviour holds, 77 to skip (printing "skip: <reason>" first),
# anything else on failure.  tests/cli/lib.sh has the assertion helpers.
# Pass test names or numbers to run a subset: tests/cli/run.sh t0001 t0102.
# With EVIDENT built under build-san/ (make test's ASan+UBSan pass), the
# tests listed in tests/cli/san-skip.txt are counted as skipped without
# running: the lines of src/ they run, other tests run sanitized (that file
# says how it was measured; SAN_CLI_ALL=1 runs them all).
# With CLI_ONCE=1 (make test sets it; CLI_BOTH=1 make test does not) each
# test belongs to one pass and the other pass neither runs nor counts it:
# the plain pass (EVIDENT not under build-san/) runs the tests listed in
# san-skip.txt and those that call lib.sh's plain_pass_only or plain_pass
# (or slurm-lib.sh's slurm_once) on a line of their own: they need the
# plain build, or test no evident code; the sanitized pass runs every
# other test.  The sanitized pass runs each of its tests with every check
# the plain pass would make, so a test it runs needs no plain run as well.
# With SAN_CLI_ALL=1 too, the plain pass runs only the tests so marked.
#
# Tests run CLI_JOBS at a time (default: the number of CPUs, nproc), each
# with its output in a file.  A test's ok/skip/FAIL line (and on failure the
# last 25 lines of its output) is printed once it and every test listed
# before it have ended, so the output reads as a one-at-a-time run would.
# The tests whose checks race the clock or other processes (they call
# lib.sh's runs_alone, runs_alone_light or runs_alone_machine) run after the others, one at a
# time, and are listed after them (those of runs_alone_machine last).  With
# CLI_LOCK=FILE (make test sets it) every test holds FILE with flock(1):
# shared while it runs beside others, exclusive when it runs alone.
# Everything else make test runs at the same time (the unit tests, the
# other pass of this script, the sanitized build, the repository checks)
# holds FILE shared too, so a test that runs alone has the machine to
# itself, other users aside.
# make test (scripts/run-tests.sh) runs its two passes' alone tests side by
# side instead, a CPU each: with CLI_SIDE_DONE=FILE and CLI_ALONE_GO=FILE,
# once the tests beside others have ended this script creates the first
# and waits for the second, which run-tests.sh creates once nothing but
# the alone tests is left of make test.  Then each runs_alone test holds
# one of CLI_JOBS slots, FILE.slot0, FILE.slot1, ... (flock -x; both
# passes share them, so neither pass's tail leaves a CPU idle), longest
# first by CLI_ORDER; a runs_alone_machine test (a pool of a slot per CPU,
# a GPU) holds them all, alone with the machine; two runs_alone_light
# tests (they mostly sleep) share a slot, each holding it shared and one
# of its halves (light_slot), never beside a runs_alone test; each pass
# starts them after its runs_alone ones.
#
# TEST_COUNTS=FILE appends the totals there as one line "cli PASSED FAILED
# SKIPPED"; TEST_TIMES=FILE appends "SECONDS NAME CPU START" per test: its
# own run time (not the wait for the lock), the CPU seconds (user + sys)
# of the processes it ran and waited for, which, unlike the time, the load
# of a shared machine barely moves, and when it started (seconds since the
# epoch: make test's build/test-times-* give its timeline).  With CLI_ORDER=FILE, lines "SECONDS
# NAME" as TEST_TIMES writes them (an earlier run's), the tests that run
# beside others start longest first, those it does not know (new ones)
# before them, so a long test does not start last; the output stays in
# name order.
# Each pass first builds a seed build cache, once, that each test's
# scratch repository starts with (lib.sh's mkrepo; tests/cli/seed.sh says
# what it holds); CLI_SEED=0 builds none.
# The closing line is "cli: N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$here/../.." && pwd)
export REPO
: "${EVIDENT:=$REPO/bin/evident}"
export EVIDENT
jobs=${CLI_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: CLI_JOBS is '$jobs', expected a whole number of at least 1" >&2; exit 2; }
lock=${CLI_LOCK:-} pair=
if [ -n "$lock" ] && ! command -v flock >/dev/null; then
	echo "run.sh: CLI_LOCK is set but flock(1) is not installed (util-linux); the tests that run alone may have company" >&2
	lock=
fi

tests=()
if [ $# -gt 0 ]; then
	for p in "$@"; do for t in "$here"/${p}*.sh; do [ -e "$t" ] && tests+=("$t"); done; done
else
	for t in "$here"/t[0-9][0-9][0-9][0-9]-*.sh; do tests+=("$t"); done
fi
# The sanitized pass (EVIDENT built under build-san/) skips the tests
# listed in tests/cli/san-skip.txt without running them: every line of
# src/ each runs is run there by the sanitized unit tests or by a CLI test
# it does run (that file says how this was measured).  SAN_CLI_ALL=1 runs
# them all.
declare -A san_skip=()
sanitized=
[[ $EVIDENT == */build-san/* ]] && sanitized=1
if { [ -n "$sanitized" ] || [ -n "${CLI_ONCE:-}" ]; } && [ -z "${SAN_CLI_ALL:-}" ] && [ -f "$here/san-skip.txt" ]; then
	while read -r name why; do
		[[ $name == t[0-9]* ]] && san_skip[$name]=${why:-listed}
	done <"$here/san-skip.txt"
fi
# CLI_ONCE (see the top): keep the tests of this pass; those of the other
# pass are left out, not counted (other_pass says how many)
other_pass=0
if [ -n "${CLI_ONCE:-}" ]; then
	mine=()
	declare -A marked=() # one grep for all (a process is ~10 ms of CPU here)
	while read -r t; do marked[$t]=1; done < <([ ${#tests[@]} -gt 0 ] && grep -lE '^(plain_pass(_only)?|slurm_once)( |$)' "${tests[@]}")
	for t in "${tests[@]}"; do
		plain=
		[ -n "${san_skip[$(basename "$t" .sh)]:-}" ] || [ -n "${marked[$t]:-}" ] && plain=1
		# mine: a sanitized pass's test that is not plain, a plain pass's that is
		if [ "${sanitized:-0}" != "${plain:-0}" ]; then
			mine+=("$t")
		else
			other_pass=$((other_pass + 1))
		fi
	done
	tests=("${mine[@]}")
	san_skip=()
fi
# Those beside others first, in name order, then those alone (a test the
# sanitized pass skips is beside others: it does not run).
# A GPU test (need_gpu on a line of its own) on a machine with no GPU is
# beside others too: need_gpu skips it before it runs anything, and as a
# runs_alone_machine test it held every slot of make test's alone phase
# to skip (9 CUDA tests, 2026-11-30: a CPU idle 40 s while one of them
# held slot0 waiting for slot1).
gpu=1
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 || gpu=
side=() alone=() machine=()
declare -A whole=() light=()
for t in "${tests[@]}"; do
	if [ -n "${san_skip[$(basename "$t" .sh)]:-}" ]; then
		side+=("$t")
	elif [ -z "$gpu" ] && grep -q '^need_gpu\b' "$t"; then
		side+=("$t")
	elif grep -q '^runs_alone_machine ' "$t"; then
		machine+=("$t") whole[$t]=1
	elif grep -q '^runs_alone ' "$t"; then
		alone+=("$t")
	elif grep -q '^runs_alone_light ' "$t"; then
		alone+=("$t") light[$t]=1
	else
		side+=("$t")
	fi
done
order=("${side[@]}" "${alone[@]}" "${machine[@]}")
n=${#order[@]} n_side=${#side[@]}

# The order the tests beside others start in: indexes into order; with
# CLI_ORDER, those it does not know, then the others longest first.
starts=()
if [ -n "${CLI_ORDER:-}" ] && [ -s "$CLI_ORDER" ] && [ "$n_side" -gt 0 ]; then
	while read -r i; do starts+=("$i"); done < <(
		for ((i = 0; i < n_side; i++)); do echo "$i $(basename "${order[$i]}" .sh)"; done |
			awk 'NR == FNR { if ($1 + 0 > t[$2]) t[$2] = $1 + 0; next }
			     { printf "%s %012.1f %06d\n", $1, ($2 in t) ? t[$2] : 1e9, $1 }' "$CLI_ORDER" - |
			sort -k2,2r -k3,3n | cut -d' ' -f1)
else
	for ((i = 0; i < n_side; i++)); do starts+=("$i"); done
fi

res=$(mktemp -d "${TMPDIR:-/tmp}/evident-cli-run.XXXXXX") || { echo "run.sh: mktemp failed" >&2; exit 2; }
trap 'rm -rf "$res"' EXIT

# python3 once resolved: the tests call it hundreds of times (lib.sh's
# jget), and where it is a version manager's shim (pyenv's is a bash script
# that runs several more to pick the interpreter) a call cost 0.15 s of CPU
# against 0.03 s for the interpreter itself, a tenth of some tests' CPU.
# A python3 first in PATH execs the interpreter the shim picks now (by its
# path as Python reports it, so that a virtual environment stays one).
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ]; then
	mkdir -p "$res/bin" && printf '#!/bin/sh\nexec "%s" "$@"\n' "$py" >"$res/bin/python3" &&
		chmod +x "$res/bin/python3" && export PATH="$res/bin:$PATH"
fi

# The seed build cache (lib.sh's mkrepo copies it into each test's
# repository, but for a test that calls builds_from_nothing): the problem
# plug-ins and the kernels most tests build, built once here by this
# pass's EVIDENT (tests/cli/seed.sh says what it holds and why that is
# safe) instead of in each test: 88 tests make a repository with mkrepo
# and most run a host problem, and a build costs 0.3 to 0.5 s of CPU on
# the project's VM.  Both passes: the sanitized one's seed runs the
# build's miss path under ASan+UBSan, and scripts/cli-coverage.sh
# measures san-skip.txt's lines with a seed too.  CLI_SEED=0 seeds
# nothing, nor does a pass with no test to run (CLI_ONCE); CLI_SEED_CACHE
# set: that one (scripts/cli-coverage.sh builds one for all its runs).
if [ "${CLI_SEED:-1}" != 0 ] && [ -z "${CLI_SEED_CACHE:-}" ] && [ ${#tests[@]} -gt 0 ]; then
	if c=$("$here/seed.sh" "$res/seed"); then
		export CLI_SEED_CACHE=$c
	else
		echo "run.sh: every test builds from nothing" >&2
	fi
fi

# The pass's copy of tests/fixtures, which lib.sh's mkrepo hard-links
# into each test's repository (the copy there was most of mkrepo's CPU);
# at the pass's end every file of it must hash as it did when copied
# (the list made then: the tree itself may be edited while tests run),
# else a test wrote into a file it shares with the tests after it
# (fixture_check fails the pass).
fixture_sums() { (cd "$res/copy" && find fixtures -type f -print0 | sort -z | xargs -0 md5sum); }
if [ ${#tests[@]} -gt 0 ] && [ -d "$REPO/tests/fixtures" ] && [ -z "${CLI_FIXTURES_COPY:-}" ]; then
	if mkdir -p "$res/copy" && cp -r "$REPO/tests/fixtures" "$res/copy/" && fixture_sums >"$res/copy.sums"; then
		export CLI_FIXTURES_COPY=$res/copy
	else
		echo "run.sh: cannot copy tests/fixtures; each test copies its own" >&2
	fi
fi
# The pass's git objects of a scratch repository's whole tree (kernels,
# problems, tests/fixtures, data/gpu-prices.yaml: what lib.sh's mkrepo
# copies), which `mkrepo git` names as its repository's alternate object
# store: its `git add -A` then finds every blob and tree there and writes
# none (a bare `mkrepo git` commits all 6,000 fixture files, 34 MB: 2.9 s
# of CPU on the project's VM, mostly the kernel's for 6,000 compressed
# loose objects, as much as making the pass's objects once).  A file a
# test changes is only a blob git writes itself; no test's objects go
# into the pass's.  Only where four or more tests of the pass call a bare
# `mkrepo git` (the 29 GPU tests on a GPU; 3 host tests); none made, each
# writes its own.
if [ -n "${CLI_FIXTURES_COPY:-}" ] && [ -z "${CLI_GIT_OBJECTS:-}" ] && command -v git >/dev/null &&
	[ ${#tests[@]} -gt 0 ] && [ "$(grep -l '^[[:space:]]*mkrepo git[[:space:]]*$' "${tests[@]}" | wc -l)" -ge 4 ]; then
	g=$res/gitseed
	if mkdir -p "$g/tests" "$g/experiments" "$g/data" && cp -r "$REPO/kernels" "$REPO/problems" "$g/" &&
		cp -al "$CLI_FIXTURES_COPY/fixtures" "$g/tests/" && cp "$REPO/data/gpu-prices.yaml" "$g/data/" &&
		(cd "$g" && git init -q . && git add -A && git write-tree >/dev/null); then
		export CLI_GIT_OBJECTS=$g/.git/objects
	else
		echo "run.sh: cannot make the pass's git objects; each git test writes its own" >&2
	fi
fi
fixture_check() {
	[ "${CLI_FIXTURES_COPY:-}" = "$res/copy" ] || return 0
	local d
	d=$(fixture_sums | diff "$res/copy.sums" - 2>&1) && return 0
	echo "FAIL a test wrote into tests/fixtures, which lib.sh's mkrepo hard-links into every test's repository:"
	echo "$d" | head -20 | sed 's/^/     | /'
	failn=$((failn + 1)) failed+=("(shared fixtures changed)")
}

# nap SECONDS: sleep(1) without starting a process (a process costs about
# 10 ms of CPU on the project's VM, and the waits for make test's barrier
# and for a slot poll for minutes): read times out on a pipe no one writes
# to (opened both ways: no end of file).  Each test closes it.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd" || :; }

# prints "SECONDS NAME CPU START" from bash's `times` (lines "0m1.250s
# 0m0.031s"; the second is the children's user and sys) and awk -v
# a=START b=END t=NAME
cpu_awk='function s(x) { split(x, p, "m"); return p[1] * 60 + p[2] }
	NR == 2 { cpu = s($1) + s($2) }
	END { printf "%.1f %s %.1f %.1f\n", b - a, t, cpu, a }'

# run_one I MODE: runs test I holding the lock with flock MODE (-s shared,
# -x exclusive), leaving its output in $res/I.out, then its exit status in
# $res/I.rc (renamed into place, so an .rc that exists is whole).  Meant to
# run in a subshell of its own: the lock is held on descriptor 9 of that
# subshell, which the test itself does not inherit (what a test leaves
# running cannot keep the lock).
run_one() {
	local i=$1 mode=$2 t=${order[$1]} rc start
	if [ -n "${san_skip[$(basename "$t" .sh)]:-}" ]; then
		echo "skip: sanitized pass: ${san_skip[$(basename "$t" .sh)]} (tests/cli/san-skip.txt)" >"$res/$i.out"
		echo 77 >"$res/$i.rc"
		return
	fi
	if [ -n "$lock" ]; then
		exec 9>>"$lock" && flock "$mode" 9 ||
			echo "run.sh: cannot lock '$lock'; running $(basename "$t" .sh) without it" >&2
	elif [ -n "$pair" ] && [ "$mode" != -s ]; then
		# after make test's barrier: a slot (a CPU) for an alone test, all
		# of them (the machine) for a runs_alone_machine one, taken in
		# order; descriptors 20 and up, which the test does not inherit
		local k fd
		if [ -n "${whole[$t]:-}" ]; then
			for ((k = 0; k < jobs; k++)); do
				fd=$((20 + k))
				eval "exec $fd>>\"\$pair.slot\$k\"" && flock -x $fd ||
					echo "run.sh: cannot lock '$pair.slot$k'; running $(basename "$t" .sh) without it" >&2
			done
		elif [ -n "${light[$t]:-}" ]; then
			until light_slot 1 || light_slot 2; do nap 0.2; done
		else
			# (the want file keeps light tests off a free slot meanwhile)
			: >"$pair.want.$BASHPID"
			until
				for ((k = 0; k < jobs; k++)); do
					eval "exec 20>>\"\$pair.slot\$k\"" && flock -n -x 20 && break
					exec 20>&-
				done
				[ $k -lt "$jobs" ]
			do nap 0.2; done
			rm -f "$pair.want.$BASHPID"
		fi
		: >"$res/$i.slot"
	fi
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/evident-cli.XXXXXX") ||
		{ echo "run.sh: mktemp failed" >"$res/$i.out"; echo 2 >"$res/$i.rc"; return; }
	export TEST_TMP
	start=$EPOCHREALTIME
	(
		for ((k = 20; k <= 22 + jobs; k++)); do eval "exec $k>&-"; done
		cd "$TEST_TMP" && exec bash "$t" 9>&- {nap_fd}>&-
	) >"$res/$i.out" 2>&1 </dev/null
	rc=$?
	# times' second line: the CPU of this subshell's children, the test
	# (fork started it at 0; flock and mktemp add milliseconds)
	times >"$res/$i.cpu"
	[ -n "${TEST_TIMES:-}" ] && awk -v a="$start" -v b="$EPOCHREALTIME" -v t="$(basename "$t" .sh)" "$cpu_awk" \
		"$res/$i.cpu" >>"$TEST_TIMES"
	chmod -R u+w "$TEST_TMP" 2>/dev/null
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
		# a failure keeps what the test made (its store, logs, records):
		# flakes under load are diagnosed from it or not at all
		kept="${TMPDIR:-/tmp}/evident-failed-$(basename "$t" .sh)-$$-$i"
		rm -rf "$kept" && mv "$TEST_TMP" "$kept" && echo "kept: $kept" >>"$res/$i.out"
	fi
	rm -rf "$TEST_TMP"
	echo $rc >"$res/$i.rc.tmp" && mv "$res/$i.rc.tmp" "$res/$i.rc"
}

# light_slot PHASE: a runs_alone_light test's half of a slot: the slot
# (descriptor 20) shared and one of its two halves, SLOT.h0 or SLOT.h1
# (descriptor 20 + jobs), exclusive.  A runs_alone test holds its slot
# exclusive, so it never runs beside a light one on its CPU; two light
# tests share a slot.  PHASE 1 takes only a slot a light test holds
# already (they pair up), PHASE 2 a free one too, unless a runs_alone
# test waits for one (of either pass: its want file).  Each pass starts its
# light tests after its other runs_alone ones (a light test that took a
# free slot before them kept the longest of them waiting: 2026-12-01).
# Returns 1 when there is none to take now.
# heavy_waits: a runs_alone test waits for a slot (a want file whose
# process is alive; one left by a run that was killed goes)
heavy_waits() {
	local f
	for f in "$pair".want.*; do
		[ -e "$f" ] || continue
		kill -0 "${f##*.}" 2>/dev/null && return 0
		rm -f "$f"
	done
	return 1
}
light_slot() {
	local k h got other hfd=$((20 + jobs)) ofd=$((21 + jobs)) qfd=$((22 + jobs))
	# one light test looks at a time (SLOT.lightq): another's look holds
	# a half for a moment, which read as a light test in the slot
	eval "exec $qfd>>\"\$pair.lightq\"" && flock -x $qfd || return 1
	light_look "$1"
	local rc=$?
	eval "exec $qfd>&-"
	return $rc
}
light_look() {
	local k h got other hfd=$((20 + jobs)) ofd=$((21 + jobs))
	for ((k = 0; k < jobs; k++)); do
		eval "exec 20>>\"\$pair.slot\$k\"" || continue
		flock -n -s 20 || { exec 20>&-; continue; } # a runs_alone test's
		# its halves: both free, the slot is free
		got= other=
		for h in 0 1; do
			eval "exec $ofd>>\"\$pair.slot\$k.h\$h\""
			if [ -z "$got" ] && flock -n -x $ofd; then
				got=$h
				eval "exec $hfd>&$ofd"
			elif [ -n "$got" ] && flock -n -x $ofd; then
				:
			else
				other=1
			fi
			eval "exec $ofd>&-"
		done
		if [ -n "$got" ] && { [ -n "$other" ] || { [ "$1" = 2 ] && ! heavy_waits; }; }; then
			return 0
		fi
		eval "exec $hfd>&-"
		exec 20>&-
	done
	return 1
}

pass=0 failn=0 skip=0 failed=() why=()
report() { # I: print test I's line and count it
	local i=$1 name rc
	name=$(basename "${order[$i]}" .sh)
	rc=$(cat "$res/$i.rc")
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); echo "ok   $name"
	elif [ "$rc" -eq 77 ]; then
		skip=$((skip + 1)); echo "skip $name ($(grep -m1 '^skip:' "$res/$i.out" | sed 's/^skip: *//'))"
	else
		failn=$((failn + 1)); failed+=("$name"); echo "FAIL $name (exit $rc)"
		tail -25 "$res/$i.out" | sed 's/^/     | /'
		# its reason, repeated at the end (a CI log is often read by its tail)
		why+=("why $name: $({ grep -m1 '^FAIL: ' "$res/$i.out" || tail -1 "$res/$i.out"; } | cut -c1-300)")
	fi
}
printed=0
flush() { # print, in order, every ended test not printed yet
	while [ $printed -lt "$n" ] && [ -e "$res/$printed.rc" ]; do
		report $printed
		printed=$((printed + 1))
	done
}
ended() { local f k=0; for f in "$res"/*.rc; do [ -e "$f" ] && k=$((k + 1)); done; echo $k; }

# beside others: CLI_JOBS at a time
started=0
while [ $started -lt "$n_side" ]; do
	if [ $((started - $(ended))) -lt "$jobs" ]; then
		run_one "${starts[$started]}" -s &
		started=$((started + 1))
		continue
	fi
	wait -n
	flush
done
wait
flush
# alone: one at a time; under make test's barrier (see the top), once
# nothing else of make test is left, beside the other pass's
if [ -n "$lock" ] && [ -n "${CLI_SIDE_DONE:-}" ] && [ -n "${CLI_ALONE_GO:-}" ]; then
	# singles: this pass still has runs_alone tests to start (see below);
	# made before CLI_SIDE_DONE, so before CLI_ALONE_GO
	if [ ${#alone[@]} -gt 0 ]; then
		singles=$CLI_ALONE_GO.singles.$$
		: >"$singles" && trap 'rm -rf "$res" "$singles"' EXIT
	fi
	: >"$CLI_SIDE_DONE"
	if [ "$n" -gt "$n_side" ]; then
		until [ -e "$CLI_ALONE_GO" ]; do nap 0.5; done
		pair=$lock lock=
	fi
fi
[ "$n" -gt "$n_side" ] && [ "$n_side" -gt 0 ] && echo "-- one at a time (they race the clock or other processes):"
if [ -n "$pair" ]; then
	# CLI_JOBS at a time, each holding a slot (see the top): longest first
	# by CLI_ORDER, the runs_alone_machine ones last
	alone_starts=()
	n_alone=${#alone[@]}
	if [ -n "${CLI_ORDER:-}" ] && [ -s "$CLI_ORDER" ]; then
		while read -r i; do alone_starts+=("$i"); done < <(
			for ((i = n_side; i < n_side + n_alone; i++)); do echo "$i $(basename "${order[$i]}" .sh)"; done |
				awk 'NR == FNR { if ($1 + 0 > t[$2]) t[$2] = $1 + 0; next }
				     { printf "%s %012.1f %06d\n", $1, ($2 in t) ? t[$2] : 1e9, $1 }' "$CLI_ORDER" - |
				sort -k2,2r -k3,3n | cut -d' ' -f1)
	else
		for ((i = n_side; i < n_side + n_alone; i++)); do alone_starts+=("$i"); done
	fi
	# the runs_alone_light ones after the other runs_alone ones (see
	# light_slot), in the same order
	heavy_starts=() light_starts=()
	for i in "${alone_starts[@]}"; do
		if [ -n "${light[${order[$i]}]:-}" ]; then light_starts+=("$i"); else heavy_starts+=("$i"); fi
	done
	alone_starts=("${heavy_starts[@]}" "${light_starts[@]}")
	for ((i = n_side + n_alone; i < n; i++)); do alone_starts+=("$i"); done
	# singles_placed: once each runs_alone test of this pass has a slot
	# (run_one's $res/I.slot) or has ended, the singles file goes
	singles_placed() {
		local j
		[ -n "${singles:-}" ] && [ -e "$singles" ] || return 0
		for ((j = n_side; j < n_side + n_alone; j++)); do
			until [ -e "$res/$j.slot" ] || [ -e "$res/$j.rc" ]; do nap 0.2; done
		done
		rm -f "$singles"
	}
	started=0
	# halves: the slots this pass's started tests take, in halves (a
	# runs_alone test 2, a light one 1: two share a slot); CLI_JOBS
	# slots' worth at a time, each started test waiting for its slot
	halves() {
		local j w=0
		for j in "${alone_starts[@]:0:started}"; do
			[ -e "$res/$j.rc" ] || w=$((w + (${#light[${order[$j]}]} ? 1 : 2)))
		done
		echo $w
	}
	for i in "${alone_starts[@]}"; do
		while [ $(($(halves) + (${#light[${order[$i]}]} ? 1 : 2))) -gt $((2 * jobs)) ]; do
			wait -n
			flush
		done
		# a machine test waits for those of this pass before it, and
		# until every pass has started its runs_alone tests (no singles
		# file left): it takes slot0, slot1, ... in turn, and holding
		# slot0 while slot1 ran the other pass's test kept that pass's
		# next test off a free CPU (2026-11-30: 25 s of one CPU idle)
		if [ -n "${whole[${order[$i]}]:-}" ]; then
			singles_placed
			wait
			flush
			while compgen -G "$CLI_ALONE_GO.singles.*" >/dev/null; do nap 0.2; done
		fi
		run_one "$i" -x &
		started=$((started + 1))
	done
	singles_placed
	wait
	flush
else
	for ((i = n_side; i < n; i++)); do
		run_one $i -x &
		wait $!
		flush
	done
fi

fixture_check
[ $failn -gt 0 ] && printf '%s\n' "${why[@]}" && echo "failed: ${failed[*]}"
[ $other_pass -gt 0 ] && echo "($other_pass more run in the $([ -n "$sanitized" ] && echo plain || echo sanitized) pass only, counted there: CLI_ONCE)"
[ -n "${TEST_COUNTS:-}" ] && echo "cli $pass $failn $skip" >>"$TEST_COUNTS"
echo "cli: $pass passed, $failn failed, $skip skipped"
[ $failn -eq 0 ]
