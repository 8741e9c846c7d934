#!/usr/bin/env bash
# NaN, infinities and overflowing numbers are not samples: exit 1, naming file and line.
. "$REPO/tests/cli/lib.sh"
printf '1\n2\n3\n' >b.txt
printf '1\nnan\n' >n.txt
expect_exit 1 "$EVIDENT" stats n.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'n.txt' line 2: 'nan' is not a finite number; samples must be finite"
printf '1\n2\n1e999\n' >i.txt
expect_exit 1 "$EVIDENT" stats b.txt i.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'i.txt' line 3: '1e999' is out of range: larger in magnitude than the largest double (about 1.8e308)"
printf '1\n-Infinity\n' >j.txt
expect_exit 1 "$EVIDENT" stats j.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'j.txt' line 2: '-Infinity' is not a finite number; samples must be finite"
