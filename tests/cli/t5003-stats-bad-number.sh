#!/usr/bin/env bash
# A line that is not a number is an error naming file and line; exit 1.
. "$REPO/tests/cli/lib.sh"
printf '1\n2\nabc\n4\n' >a.txt
printf '1\n2\n3\n' >b.txt
expect_exit 1 "$EVIDENT" stats a.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'a.txt' line 3: 'abc' is not a number (one sample per line; '#' starts a comment)"
expect_eq "$(wc -c <"$TEST_TMP/out")" 0 "nothing on stdout"
printf '1\n2\n3 4\n' >c.txt
expect_exit 1 "$EVIDENT" stats b.txt c.txt --json
expect_eq "$(cat "$TEST_TMP/err")" "error: 'c.txt' line 3: '3 4' is not a number (one sample per line; '#' starts a comment)"
expect_eq "$(wc -c <"$TEST_TMP/out")" 0 "no JSON on stdout"
