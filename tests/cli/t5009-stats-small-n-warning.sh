#!/usr/bin/env bash
# Too few samples: a warning, verdict inconclusive even for separated sets
# (3 vs 3: no p below 0.05 is possible; 4 vs 4: p = 0.029, yet a bootstrap of
# 4 values means little), exit 0.
. "$REPO/tests/cli/lib.sh"
printf '10\n11\n12\n' >a.txt
printf '1\n2\n3\n' >b.txt
expect_exit 0 "$EVIDENT" stats a.txt b.txt --json
expect_eq "$(cat "$TEST_TMP/err")" "warning: 3 vs 3 samples are too few for the test to mean anything (the verdict is 'inconclusive'); collect at least 5 per file"
expect_contains "$TEST_TMP/out" '"verdict": "inconclusive", "small_n": true, "verdict_reason": "too few samples"'
expect_contains "$TEST_TMP/out" '"p": 0.1,'
printf '10.5\n11\n12\n13\n' >a4.txt
printf '10\n10.2\n10.3\n10.4\n' >b4.txt
expect_exit 0 "$EVIDENT" stats a4.txt b4.txt
expect_contains "$TEST_TMP/err" "warning: 4 vs 4 samples are too few"
expect_contains "$TEST_TMP/out" "Mann-Whitney U (two-sided, exact): U = 16, p = 0.02857"
expect_contains "$TEST_TMP/out" "verdict: inconclusive (too few samples;"
