#!/usr/bin/env bash
# Comma-separated files are repeats of one side.  Each candidate repeat is 2%
# faster than a baseline repeat, but the repeats themselves drift by 3%: pooled
# as independent samples that is 'faster'; taken as 3 vs 3 repeats it is not
# significant (Welch's t on the repeats' log medians): with a CI reaching beyond
# the noise band that is inconclusive, not 'no difference'; the report shows the
# run-to-run variance.  Exit 0.
. "$REPO/tests/cli/lib.sh"
gen() { awk -v base="$1" -v ph="$2" 'BEGIN { for (i = 0; i < 100; i++) printf "%.4f\n", base * (1 + 0.004 * sin(i * 1.7 + ph)) }'; }
gen 100 0 >a1.txt; gen 103 1 >a2.txt; gen 106 2 >a3.txt
gen 98 3 >b1.txt; gen 101 4 >b2.txt; gen 104 5 >b3.txt
cat a1.txt a2.txt a3.txt >a.txt
cat b1.txt b2.txt b3.txt >b.txt
expect_exit 0 "$EVIDENT" stats --json --resamples 2000 a.txt b.txt
expect_contains "$TEST_TMP/out" '"verdict": "faster"'
expect_exit 0 "$EVIDENT" stats --resamples 2000 a1.txt,a2.txt,a3.txt b1.txt,b2.txt,b3.txt
expect_contains "$TEST_TMP/out" "a (baseline): 'a1.txt,a2.txt,a3.txt'"
expect_contains "$TEST_TMP/out" "  repeats 3, 100 to 100 samples each; variance of the median: between repeats 9"
expect_contains "$TEST_TMP/out" "(percentile, two-level)"
expect_contains "$TEST_TMP/out" "Welch's t test on the repeats' log medians (df "
expect_contains "$TEST_TMP/out" "verdict: inconclusive (not significant, and the speedup CI reaches beyond the noise band"
expect_contains "$TEST_TMP/out" "bootstrap: 2000 resamples, seed 1 (mt19937), two-level: repeats, then samples within each"
expect_eq "$(wc -c <"$TEST_TMP/err")" 0 "nothing on stderr"
expect_exit 0 "$EVIDENT" stats --json --resamples 2000 a1.txt,a2.txt,a3.txt b1.txt,b2.txt,b3.txt
expect_eq "$(wc -l <"$TEST_TMP/out")" 1 "one line"
expect_contains "$TEST_TMP/out" '"repeats": 3}, "b": {"n": 300,'
expect_contains "$TEST_TMP/out" '"method": "welch_log_medians"}'
expect_contains "$TEST_TMP/out" '"method": "asymptotic_repeats"}'
expect_contains "$TEST_TMP/out" '"verdict": "inconclusive", "small_n": false, "verdict_reason": "not significant, and the speedup CI reaches beyond the noise band'
expect_contains "$TEST_TMP/out" '"repeats": [3, 3], "test_sign": 1, "test_df": '
expect_contains "$TEST_TMP/out" '"levels": {"a": {"repeats": 3, "samples": 300, "samples_min": 100, "samples_max": 100, "between_var": 9'
# the same files as one repeat each: exactly the single-file result
expect_exit 0 "$EVIDENT" stats --json --resamples 2000 a1.txt b1.txt
cp "$TEST_TMP/out" one.json
expect_exit 0 "$EVIDENT" stats --json --resamples 2000 ./a1.txt b1.txt
cmp -s "$TEST_TMP/out" one.json || fail "a one-repeat side differs from the plain file"
