# spec error (kernel-missing): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/x.yaml <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/host/nope.c
Y
expect_exit 3 "$EVIDENT" run experiments/x.yaml
[ "$(wc -l < "$TEST_TMP/err")" = 1 ] || { cat "$TEST_TMP/err"; fail "expected one error line"; }
expect_eq "$(cat "$TEST_TMP/err")" "error: experiments/x.yaml:4:9: kernel file 'kernels/host/nope.c' (variant 'default') does not exist; paths are relative to the repository root"
[ ! -e artifacts ] || fail "the store was touched"
