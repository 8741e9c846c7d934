# spec error (kernel outside, ../): a relative path that climbs out of the
# repository is refused as outside it, whether or not the file exists
. "$REPO/tests/cli/lib.sh"
mkdir -p "$TEST_TMP/elsewhere" && echo 'int x;' >"$TEST_TMP/elsewhere/k.c"
real=$(realpath "$TEST_TMP/elsewhere/k.c")
expect_spec_error "error: experiments/x.yaml:4:9: kernel '../elsewhere/k.c' (variant 'default') is outside the repository (it leads to '$real'); code there has no commit or diff, so its runs could not be reproduced: move it under the repository root" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: ../elsewhere/k.c
Y
expect_spec_error "error: experiments/x.yaml:4:9: kernel 'kernels/../../nope.c' (variant 'default') is outside the repository; code there has no commit or diff, so its runs could not be reproduced: move it under the repository root" <<'Y'
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/../../nope.c
Y
