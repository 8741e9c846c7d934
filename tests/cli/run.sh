#!/usr/bin/env bash
# run.sh - runs the numbered command-line tests tests/cli/tNNNN-*.sh.
#
# Each test is one behaviour.  It runs with cwd set to a fresh temporary
# directory and these variables: EVIDENT (absolute path of the binary under
# test), REPO (repository root), TEST_TMP (the temporary directory).  It exits
# 0 when the behaviour holds, 77 to skip (printing "skip: <reason>" first),
# anything else on failure.  tests/cli/lib.sh has the assertion helpers.
# Pass test names or numbers to run a subset: tests/cli/run.sh t0001 t0102.
# The closing line is "cli: N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$here/../.." && pwd)
export REPO
: "${EVIDENT:=$REPO/bin/evident}"
export EVIDENT
pass=0 failn=0 skip=0 failed=()
tests=()
if [ $# -gt 0 ]; then
	for p in "$@"; do for t in "$here"/${p}*.sh; do [ -e "$t" ] && tests+=("$t"); done; done
else
	for t in "$here"/t[0-9][0-9][0-9][0-9]-*.sh; do tests+=("$t"); done
fi
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/evident-cli.XXXXXX")
	export TEST_TMP
	out=$( cd "$TEST_TMP" && bash "$t" 2>&1 )
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "ok   $name"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "skip $name ($(printf '%s\n' "$out" | grep -m1 '^skip:' | sed 's/^skip: *//'))"
	else
		failn=$((failn + 1)); failed+=("$name"); echo "FAIL $name (exit $rc)"
		printf '%s\n' "$out" | tail -25 | sed 's/^/     | /'
	fi
	chmod -R u+w "$TEST_TMP" 2>/dev/null; rm -rf "$TEST_TMP"
done
[ $failn -gt 0 ] && echo "failed: ${failed[*]}"
echo "cli: $pass passed, $failn failed, $skip skipped"
[ $failn -eq 0 ]
