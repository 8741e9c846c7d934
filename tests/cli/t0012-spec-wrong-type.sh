# spec error (wrong-type): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:3:8: 'shape' must be a mapping (key: value lines), not a list" <<'Y'
name: x
problem: attention_fwd
shape: [1, 1, 16, 16]
variants:
  a: {kernel: kernels/host/attn_naive.c}
Y
