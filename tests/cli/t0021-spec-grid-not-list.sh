# spec error (grid-not-list): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/x.yaml <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/host/attn_blocked.c
baseline: BLOCK_M-8
grid: {BLOCK_M: 8}
Y
expect_exit 3 "$EVIDENT" run experiments/x.yaml
[ "$(wc -l < "$TEST_TMP/err")" = 1 ] || { cat "$TEST_TMP/err"; fail "expected one error line"; }
expect_eq "$(cat "$TEST_TMP/err")" "error: experiments/x.yaml:6:17: grid parameter 'BLOCK_M' must be a list like [1, 2, 4], not a scalar"
[ ! -e artifacts ] || fail "the store was touched"
