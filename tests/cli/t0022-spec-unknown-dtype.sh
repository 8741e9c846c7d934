# spec error (unknown-dtype): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:7:8: unknown dtype 'fp8' (did you mean 'fp32'?)" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
dtype: fp8
Y
