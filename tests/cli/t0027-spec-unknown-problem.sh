# spec error (unknown-problem): a misspelt problem gets the nearest problem
# there is, as a misspelt key gets its key; a name near none gets the list.
# Exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:2:10: unknown problem 'atention_fwd' (did you mean 'attention_fwd'?): there is no 'problems/atention_fwd.c' (see 'evident help problems', docs/writing-a-problem.md adds one)" <<'Y'
name: x
problem: atention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
Y
cd "$TEST_TMP" && rm -rf repo
expect_spec_error "error: experiments/x.yaml:2:10: unknown problem 'sdpa' (known: attention_fwd, gemm, layernorm, rowsum, softmax): there is no 'problems/sdpa.c' (see 'evident help problems', docs/writing-a-problem.md adds one)" <<'Y'
name: x
problem: sdpa
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_naive.c}
Y
