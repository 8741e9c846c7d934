# spec error (kernel-missing): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:4:9: kernel file 'kernels/host/nope.c' (variant 'default') does not exist; paths are relative to the repository root" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/host/nope.c
Y
