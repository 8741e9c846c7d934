#!/usr/bin/env bash
# A significant 0.3% change is inside the default +-1% noise band: no_difference;
# with --threshold 0 it counts; the reverse comparison is 'slower'; at an alpha
# no 30 vs 30 test can reach, the samples are too few: inconclusive.  Exit 0 always.
. "$REPO/tests/cli/lib.sh"
for i in $(seq 0 29); do echo "100.$(printf '%02d' $i)"; done >a.txt
for i in $(seq 0 29); do echo "99.$(printf '%02d' $((70 + i)))"; done >b.txt
expect_exit 0 "$EVIDENT" stats --json a.txt b.txt
expect_contains "$TEST_TMP/out" '"verdict": "no_difference", "small_n": false, "verdict_reason": "inside the noise band"'
expect_exit 0 "$EVIDENT" stats --json --threshold 0 a.txt b.txt
expect_contains "$TEST_TMP/out" '"verdict": "faster"'
expect_exit 0 "$EVIDENT" stats --json --threshold 0 b.txt a.txt
expect_contains "$TEST_TMP/out" '"verdict": "slower"'
expect_exit 0 "$EVIDENT" stats --json --threshold 0 --alpha 1e-30 a.txt b.txt
expect_contains "$TEST_TMP/out" '"verdict": "inconclusive", "small_n": true, "verdict_reason": "too few samples"'
