# spec error (empty): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/x.yaml <<'Y'

Y
expect_exit 3 "$EVIDENT" run experiments/x.yaml
[ "$(wc -l < "$TEST_TMP/err")" = 1 ] || { cat "$TEST_TMP/err"; fail "expected one error line"; }
expect_eq "$(cat "$TEST_TMP/err")" "error: experiments/x.yaml:1:1: the spec is empty; see README.md 'Spec reference'"
[ ! -e artifacts ] || fail "the store was touched"
