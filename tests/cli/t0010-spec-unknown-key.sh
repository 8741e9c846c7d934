# spec error (unknown-key): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:7:10: unknown key 'warmpu_ms' in 'timing' (did you mean 'warmup_ms'?)" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
timing: {warmpu_ms: 5}
Y
