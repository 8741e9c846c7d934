#!/usr/bin/env bash
# Repeats on the command line: an empty file name is a usage error (exit 2);
# a missing or bad repeat file names the file (exit 1).
. "$REPO/tests/cli/lib.sh"
printf '1\n2\n3\n' >a.txt
printf '4\n5\n6\n' >b.txt
printf '7\n' >one.txt
printf '1\nx\n' >bad.txt
expect_exit 2 "$EVIDENT" stats a.txt,,b.txt b.txt
expect_contains "$TEST_TMP/err" "error: 'a.txt,,b.txt': an empty file name; give repeats as A1.txt,A2.txt,..."
expect_contains "$TEST_TMP/err" "usage: evident stats"
expect_exit 2 "$EVIDENT" stats a.txt b.txt,
expect_contains "$TEST_TMP/err" "error: 'b.txt,': an empty file name"
expect_exit 1 "$EVIDENT" stats a.txt,nope.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: cannot open 'nope.txt': No such file or directory"
expect_exit 1 "$EVIDENT" stats a.txt b.txt,bad.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'bad.txt' line 2: 'x' is not a number (one sample per line; '#' starts a comment)"
expect_exit 1 "$EVIDENT" stats a.txt one.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'one.txt' has only 1 sample; need at least 2 to compare (one sample per line)"
# one sample per repeat is allowed; two repeats against one are too few to test
expect_exit 0 "$EVIDENT" stats --resamples 200 one.txt,a.txt b.txt
expect_contains "$TEST_TMP/err" "warning: 2 vs 1 repeats (4 vs 3 samples) are too few"
expect_contains "$TEST_TMP/out" "verdict: inconclusive (fewer than 3 repeats on a side:"
expect_eq "$(wc -l <"$TEST_TMP/out" | tr -d " ")" 17 "a whole report"
