# a run prints the summary table and leaves one record per variant plus a batch record, listed by ls
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/out" "experiment tiny:"
expect_contains "$TEST_TMP/out" "naive                    ok"
expect_contains "$TEST_TMP/out" "baseline"
expect_contains "$TEST_TMP/out" "2 variants, 2 runs;"
[ "$(ls artifacts/runs | wc -l)" = 3 ] || fail "expected 3 manifests, got $(ls artifacts/runs)"
expect_exit 0 "$EVIDENT" ls
expect_contains "$TEST_TMP/out" "tiny           naive"
expect_contains "$TEST_TMP/out" "tiny           blocked"
expect_exit 0 "$EVIDENT" ls --batches
expect_contains "$TEST_TMP/out" "-batch"
expect_exit 0 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "intact"
