# spec error (missing-key): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:1:1: missing required key 'problem' (e.g. attention_fwd)" <<'Y'
name: x
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/host/attn_naive.c
Y
