#!/usr/bin/env bash
# run-unit-tests.sh - runs each cmocka test binary given on the command line
# and fails if any fails.  Each binary prints cmocka's own summary.
set -u
fail=0
for t in "$@"; do
	echo "== $t"
	"$t" || fail=1
done
exit $fail
