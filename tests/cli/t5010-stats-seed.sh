#!/usr/bin/env bash
# The bootstrap is reproducible from the seed, which the JSON records.
. "$REPO/tests/cli/lib.sh"
for i in $(seq 1 40); do echo "$(( (i * 37) % 101 )).$i"; done >a.txt
for i in $(seq 1 40); do echo "$(( (i * 53) % 97 )).$i"; done >b.txt
"$EVIDENT" stats --json --seed 7 --resamples 2000 a.txt b.txt >one || fail "first run"
"$EVIDENT" stats --json --seed=7 --resamples=2000 a.txt b.txt >two || fail "second run"
cmp -s one two || fail "same seed gave different output"
"$EVIDENT" stats --json --seed 8 --resamples 2000 a.txt b.txt >three || fail "third run"
cmp -s one three && fail "a different seed gave identical CIs"
expect_contains one '"resamples": 2000, "seed": 7, "confidence": 0.95'
expect_contains three '"seed": 8,'
