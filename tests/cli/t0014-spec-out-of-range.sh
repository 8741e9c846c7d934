# spec error (out-of-range): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:7:22: 'seeds' is 0, out of range [1, 1000]" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
correctness: {seeds: 0}
Y
