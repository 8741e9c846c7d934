# run ids from the command line never resolve outside the store
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
echo '{}' > "$TEST_TMP/x.json"
for bad in ../../x ../x /etc/passwd "a/b" ".."; do
	expect_exit 2 "$EVIDENT" show "$bad"
	expect_contains "$TEST_TMP/err" "is not a run id"
done
expect_exit 2 "$EVIDENT" show --object ../../../etc/passwd
# batch ids too: reproduce and wait refuse a path before touching the store
for cmd in reproduce wait; do
	expect_exit 2 "$EVIDENT" $cmd ../../x
	expect_contains "$TEST_TMP/err" "is not a batch id"
done
