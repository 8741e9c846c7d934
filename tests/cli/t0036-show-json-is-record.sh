# show --json prints the record byte for byte; show prints provenance readably; a unique prefix works
. "$REPO/tests/cli/lib.sh"
mkrepo git
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
f=$(grep -l '"variant": "naive"' artifacts/runs/*.json | grep -v -- -batch | head -1); id=$(basename "$f" .json)
expect_exit 0 "$EVIDENT" show --json "$id"
cmp "$TEST_TMP/out" "$f" || fail "show --json differs from the manifest"
expect_exit 0 "$EVIDENT" show "${id%???}"
expect_contains "$TEST_TMP/out" "commit $(git rev-parse HEAD) on"
expect_contains "$TEST_TMP/out" "correctness pass"
expect_contains "$TEST_TMP/out" "source   kernels/host/attn_naive.c"
expect_exit 0 "$EVIDENT" show --samples "$id"
[ "$(grep -vc '^#' "$TEST_TMP/out")" = 10 ] || fail "expected 10 samples"
