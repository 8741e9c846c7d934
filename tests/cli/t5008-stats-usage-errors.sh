#!/usr/bin/env bash
# Bad command lines exit 2 with a message and the usage on stderr.
. "$REPO/tests/cli/lib.sh"
printf '1\n2\n3\n' >a.txt
cp a.txt b.txt
expect_exit 2 "$EVIDENT" stats
expect_contains "$TEST_TMP/err" "error: no sample files; give the baseline and the candidate sample files"
expect_contains "$TEST_TMP/err" "usage: evident stats"
expect_exit 2 "$EVIDENT" stats a.txt
expect_contains "$TEST_TMP/err" "error: only one sample file"
expect_exit 2 "$EVIDENT" stats a.txt b.txt c.txt
expect_contains "$TEST_TMP/err" "error: unexpected argument 'c.txt'"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --alpa 0.1
expect_contains "$TEST_TMP/err" "error: unknown option '--alpa'"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --alpha 1.5
expect_contains "$TEST_TMP/err" "error: --alpha: '1.5' is not a number in (0, 1)"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --confidence=abc
expect_contains "$TEST_TMP/err" "error: --confidence: 'abc' is not a number in (0, 1)"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --resamples 10
expect_contains "$TEST_TMP/err" "error: --resamples: '10' is not a whole number in [100, 10000000]"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --seed -1
expect_contains "$TEST_TMP/err" "error: --seed: '-1' is not a whole number"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --threshold -0.1
expect_contains "$TEST_TMP/err" "error: --threshold: '-0.1' is negative"
expect_exit 2 "$EVIDENT" stats a.txt b.txt --seed
expect_contains "$TEST_TMP/err" "error: option '--seed' needs a value"
expect_eq "$(wc -c <"$TEST_TMP/out")" 0 "nothing on stdout"
