#!/usr/bin/env bash
# Red team 41 (tests/fixtures/adversary/host/redteam41/README.md, finding 4):
# "no_difference" is an equivalence statement, so it needs the whole speedup
# CI inside the noise band (src/stats/stats.h, rule 5).  Here both sides'
# repeats drift by 10% (90, 100, 110 us against 91, 100.5, 109): the estimate
# is within 1% and p is far above 0.05, but the CI allows +-20%: inconclusive,
# where it read "no_difference (not significant)" before.  Two steady sides
# whose CI lies inside [0.99, 1.01] are no_difference.  Exit 0.
. "$REPO/tests/cli/lib.sh"
gen() { awk -v base="$1" -v ph="$2" 'BEGIN { for (i = 0; i < 100; i++) printf "%.4f\n", base * (1 + 0.004 * sin(i * 1.7 + ph)) }'; }
gen 90 0 >a1.txt; gen 100 1 >a2.txt; gen 110 2 >a3.txt
gen 91 3 >b1.txt; gen 100.5 4 >b2.txt; gen 109 5 >b3.txt
expect_exit 0 "$EVIDENT" stats --resamples 2000 a1.txt,a2.txt,a3.txt b1.txt,b2.txt,b3.txt
expect_contains "$TEST_TMP/out" "speedup median(a)/median(b): 0.9950x, 95% CI [0.8300, 1.2027]"
expect_contains "$TEST_TMP/out" "verdict: inconclusive (not significant, and the speedup CI reaches beyond the noise band: the data allow a difference larger than it"
expect_exit 0 "$EVIDENT" stats --json --resamples 2000 a1.txt,a2.txt,a3.txt b1.txt,b2.txt,b3.txt
expect_contains "$TEST_TMP/out" '"verdict": "inconclusive"'
# the same drift judged with a band wide enough to hold the CI: alike
expect_exit 0 "$EVIDENT" stats --threshold 0.25 --resamples 2000 a1.txt,a2.txt,a3.txt b1.txt,b2.txt,b3.txt
expect_contains "$TEST_TMP/out" "verdict: no_difference (inside the noise band; alpha 0.05, noise band [0.75, 1.25])"
# steady repeats: the CI inside [0.99, 1.01]
gen 100 0 >c1.txt; gen 100.1 1 >c2.txt; gen 99.9 2 >c3.txt
gen 100.05 3 >d1.txt; gen 100 4 >d2.txt; gen 99.95 5 >d3.txt
expect_exit 0 "$EVIDENT" stats --resamples 2000 c1.txt,c2.txt,c3.txt d1.txt,d2.txt,d3.txt
expect_contains "$TEST_TMP/out" "verdict: no_difference (inside the noise band; alpha 0.05, noise band [0.99, 1.01])"
expect_eq "$(wc -c <"$TEST_TMP/err")" 0 "nothing on stderr"
