#!/usr/bin/env bash
# Samples <= 0 leave the speedup undefined: a warning, null ratio and CI, method
# "none", verdict inconclusive; the rank statistics are still reported.  Exit 0.
. "$REPO/tests/cli/lib.sh"
printf '%s\n' -1 0 1 2 3 4 5 6 >a.txt
printf '%s\n' 10 11 12 13 14 15 16 17 >b.txt
expect_exit 0 "$EVIDENT" stats --json --resamples 500 a.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "warning: the speedup needs every sample > 0 (times); the verdict is 'inconclusive'"
expect_contains "$TEST_TMP/out" '"speedup": {"ratio": null, "ci": [null, null], "method": "none"}, "verdict": "inconclusive", "small_n": false, "verdict_reason": "speedup not defined (a sample is <= 0)", "min_detectable_speedup": null'
expect_contains "$TEST_TMP/out" '"cliffs_delta": {"delta": -1.0,'
expect_exit 0 "$EVIDENT" stats --resamples 500 a.txt b.txt
expect_contains "$TEST_TMP/out" "speedup: not defined (needs every sample > 0)"
