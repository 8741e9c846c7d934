#!/usr/bin/env bash
# One sample cannot be compared: exit 1 with a message saying how many are needed.
. "$REPO/tests/cli/lib.sh"
printf '5\n' >one.txt
printf '1\n2\n3\n' >b.txt
expect_exit 1 "$EVIDENT" stats one.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'one.txt' has only 1 sample; need at least 2 to compare (one sample per line)"
