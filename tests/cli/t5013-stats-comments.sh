#!/usr/bin/env bash
# Blank lines, whole-line and trailing '#' comments, CRLF and spaces are accepted.
. "$REPO/tests/cli/lib.sh"
printf '# kernel times, us\r\n\r\n  1.5 # warm\r\n2.5\r\n\t3.5\t\r\n4.5\n5.5' >a.txt
printf '1\n2\n3\n4\n5\n' >b.txt
expect_exit 0 "$EVIDENT" stats --json --resamples 500 a.txt b.txt
expect_contains "$TEST_TMP/out" '"a": {"n": 5, "median": 3.5, "mean": 3.5, "min": 1.5, "max": 5.5,'
