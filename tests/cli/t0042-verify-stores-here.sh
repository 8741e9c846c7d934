# `evident verify` with no --store (and no EVIDENT_STORE) checks every store
# in the current folder: in a fresh clone that is the committed artifacts/,
# which the default store/ is not; a damaged one fails the whole command
# and is named.  Where no store is, verify, ls, show and reproduce say
# which stores are here and the --store to pass.
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
unset EVIDENT_STORE
# the clone's situation: a committed store, no store/ yet
expect_exit 0 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^verify: artifacts: [0-9]+ objects, [0-9]+ runs: intact"
expect_exit 0 "$EVIDENT" ls
expect_contains "$TEST_TMP/out" "store 'store' does not exist); the stores here are 'artifacts': pass --store artifacts"
expect_exit 7 "$EVIDENT" show abcdef
expect_contains "$TEST_TMP/err" "the stores here are 'artifacts': pass --store artifacts"
expect_exit 7 "$EVIDENT" reproduce abcdef
expect_contains "$TEST_TMP/err" "the stores here are 'artifacts': pass --store artifacts"
# two stores: both checked, a line each
"$EVIDENT" run --no-progress --store store tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run into store/"
expect_exit 0 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^verify: artifacts: .*intact"
expect_match "$TEST_TMP/out" "^verify: store: .*intact"
# a damaged one: exit 1, named, and the intact one still reported
obj=$(find store/objects -type f | head -1)
chmod u+w "$obj" && printf 'x' >> "$obj"
expect_exit 1 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^altered: store/objects/"
expect_match "$TEST_TMP/out" "^verify: artifacts: .*intact"
# --store and EVIDENT_STORE still name exactly one
expect_exit 0 "$EVIDENT" verify --store artifacts
[ "$(grep -c '^verify:' "$TEST_TMP/out")" = 1 ] || fail "verify --store checked more than one store"
EVIDENT_STORE=artifacts expect_exit 0 "$EVIDENT" verify
# no store anywhere here
mkdir empty && cd empty || fail "cd"
expect_exit 5 "$EVIDENT" verify
expect_contains "$TEST_TMP/err" "no store at 'store'; run an experiment first, or pass --store DIR"
