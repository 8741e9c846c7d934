#!/usr/bin/env bash
# evident stats --help prints the usage, options and exit codes on stdout, exit 0.
. "$REPO/tests/cli/lib.sh"
expect_exit 0 "$EVIDENT" stats --help
expect_contains "$TEST_TMP/out" "usage: evident stats A.txt B.txt"
for opt in --json --alpha --threshold --resamples --seed --confidence; do
	expect_contains "$TEST_TMP/out" "  $opt"
done
expect_contains "$TEST_TMP/out" "evident stats A1.txt,A2.txt,A3.txt B1.txt,B2.txt,B3.txt"
expect_contains "$TEST_TMP/out" "hex (0x1p3), nan, inf"
expect_contains "$TEST_TMP/out" "'inconclusive' when"
expect_contains "$TEST_TMP/out" "  1    an input file is bad"
expect_contains "$TEST_TMP/out" "  2    bad command line"
expect_eq "$(wc -c <"$TEST_TMP/err")" 0 "nothing on stderr"
expect_exit 0 "$EVIDENT" help stats
expect_contains "$TEST_TMP/out" "usage: evident stats A.txt B.txt"
