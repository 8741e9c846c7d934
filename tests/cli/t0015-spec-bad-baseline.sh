# spec error (bad-baseline): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:4:11: baseline 'base' is not among the variants (a, b)" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: base
variants:
  a: {kernel: kernels/host/attn_naive.c}
  b: {kernel: kernels/host/attn_naive.c}
Y
