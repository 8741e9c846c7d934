#!/usr/bin/env bash
# Values near 1e300 still give a finite mean and stdev (no overflow in the sums).
. "$REPO/tests/cli/lib.sh"
printf '%s\n' 1e300 -1e300 1e300 -1e300 1e300 -1e300 >a.txt
printf '%s\n' 1.5e308 1.6e308 1.7e308 1.55e308 1.65e308 >b.txt
expect_exit 0 "$EVIDENT" stats --json --resamples 200 a.txt b.txt
expect_contains "$TEST_TMP/out" '"a": {"n": 6, "median": 0.0, "mean": 0.0, "min": -1e300, "max": 1e300, "stdev": 1.09544511501033e300,'
expect_contains "$TEST_TMP/out" '"b": {"n": 5, "median": 1.6e308, "mean": 1.6e308, "min": 1.5e308, "max": 1.7e308, "stdev": 7.90569415042095e306,'
