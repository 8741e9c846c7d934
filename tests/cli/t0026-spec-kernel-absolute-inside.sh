# spec error (kernel absolute): a kernel inside the repository but given by
# its absolute path is refused: records name kernels relative to the root,
# the same on every clone
. "$REPO/tests/cli/lib.sh"
mkrepo
k="$PWD/kernels/host/attn_naive.c"
expect_spec_error "error: experiments/x.yaml:4:9: kernel '$k' (variant 'default') is an absolute path; give it relative to the repository root, as the records name it" <<Y
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: $k
Y
