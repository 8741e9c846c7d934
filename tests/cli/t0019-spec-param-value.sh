# spec error (param-value): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:7:51: parameter 'BLOCK_M' value '64;rm' may only hold letters, digits and _ . + -" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
  b: {kernel: kernels/host/attn_naive.c, BLOCK_M: '64;rm'}
Y
