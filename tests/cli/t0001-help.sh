# evident help lists every command and the exit codes; an unknown command is a usage error (2)
. "$REPO/tests/cli/lib.sh"
expect_exit 0 "$EVIDENT" help
for c in run ls show verify reproduce stats paper audit export; do expect_contains "$TEST_TMP/out" "  $c "; done
expect_contains "$TEST_TMP/out" "3    invalid experiment spec"
expect_not_contains "$TEST_TMP/out" "__worker"
expect_exit 2 "$EVIDENT" frobnicate
expect_contains "$TEST_TMP/err" "error: 'frobnicate' is not an evident command"
for c in run ls show verify reproduce; do expect_exit 0 "$EVIDENT" $c --help; expect_contains "$TEST_TMP/out" "usage: evident $c"; done
