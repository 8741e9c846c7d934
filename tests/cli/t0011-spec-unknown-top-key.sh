# spec error (unknown-top-key): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:4:1: unknown key 'basline' (did you mean 'baseline'?)" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
basline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
Y
