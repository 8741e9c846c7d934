# t0096: before its first job a run prints its plan and what it will
# likely cost, from the newest batch of the same experiment in the store:
# none for the first batch, then the batch it went by and the time per
# run; --dry-run prints the same line (and writes nothing), with the
# repeats and --only it would run with.
. "$REPO/tests/cli/lib.sh"
mkrepo
cp "$REPO/tests/fixtures/specs/tiny.yaml" experiments/
expect_exit 0 "$EVIDENT" run --dry-run experiments/tiny.yaml
expect_contains "$TEST_TMP/out" "plan: 2 variants x 1 repeat = 2 runs, interleaved; no estimate yet: no earlier batch of tiny in this store"
expect_contains "$TEST_TMP/out" "with 1 repeat per variant no comparison is decided (inconclusive); use --repeats 3 or more"
[ ! -e artifacts ] || fail "--dry-run created the store"

expect_exit 0 "$EVIDENT" run experiments/tiny.yaml
[ "$(grep -c '^plan: ' "$TEST_TMP/err")" = 1 ] || fail "expected one plan line on stderr"
expect_contains "$TEST_TMP/err" "plan: 2 variants x 1 repeat = 2 runs, interleaved; no estimate yet: no earlier batch of tiny in this store"
B1=$(sed -n 's/^records: .* and batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$B1" ] || fail "no batch id in the output"

# the second run goes by the first: 3 repeats of 2 variants = 6 runs at its time per run
expect_exit 0 "$EVIDENT" run --repeats 3 experiments/tiny.yaml
expect_match "$TEST_TMP/err" "^plan: 2 variants x 3 repeats = 6 runs, interleaved; estimated [0-9]+ (s|min [0-9]+ s) \\([0-9.]+ s a run in batch $B1\\)\$"
expect_exit 0 "$EVIDENT" run --dry-run --only blocked --repeats 2 experiments/tiny.yaml
expect_match "$TEST_TMP/out" "^plan: 2 variants x 2 repeats = 4 runs, interleaved; estimated [0-9]+ (s|min [0-9]+ s) \\([0-9.]+ s a run in batch .*-tiny-.*-batch\\)\$"
expect_not_contains "$TEST_TMP/out" "no comparison is decided"
