# spec error (kernel outside, through a symlink): a kernel path inside the
# repository that is a symlink leading out of it is refused like one
# written outside, naming where it leads; the variant's own kernel: line
. "$REPO/tests/cli/lib.sh"
mkdir -p "$TEST_TMP/elsewhere" && echo 'int x;' >"$TEST_TMP/elsewhere/k.c"
mkrepo
ln -s "$TEST_TMP/elsewhere/k.c" kernels/host/linked.c || fail "ln"
real=$(realpath "$TEST_TMP/elsewhere/k.c")
expect_spec_error "error: experiments/x.yaml:7:20: kernel 'kernels/host/linked.c' (variant 'linked') is outside the repository (it leads to '$real'); code there has no commit or diff, so its runs could not be reproduced: move it under the repository root" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: ok
variants:
  ok: {kernel: kernels/host/attn_naive.c}
  linked: {kernel: kernels/host/linked.c}
Y
