#!/usr/bin/env bash
# A file that cannot be read: exit 1, naming it.
. "$REPO/tests/cli/lib.sh"
printf '1\n2\n3\n' >b.txt
expect_exit 1 "$EVIDENT" stats nope.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: cannot open 'nope.txt': No such file or directory"
