#!/usr/bin/env bash
# Too few samples: a warning, verdict no_difference even for separated sets, exit 0.
. "$REPO/tests/cli/lib.sh"
printf '10\n11\n12\n' >a.txt
printf '1\n2\n3\n' >b.txt
expect_exit 0 "$EVIDENT" stats a.txt b.txt --json
expect_eq "$(cat "$TEST_TMP/err")" "warning: 3 vs 3 samples are too few for the test to mean anything (the verdict cannot be 'faster' or 'slower'); collect at least 5 per file"
expect_contains "$TEST_TMP/out" '"verdict": "no_difference", "small_n": true'
expect_contains "$TEST_TMP/out" '"p": 0.1,'
