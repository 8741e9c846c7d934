# spec error (grid-not-list): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:6:17: grid parameter 'BLOCK_M' must be a list like [1, 2, 4], not a scalar" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/host/attn_blocked.c
baseline: BLOCK_M-8
grid: {BLOCK_M: 8}
Y
