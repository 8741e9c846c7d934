# spec error (kernel outside, absolute): a kernel given as an absolute path
# out of the repository is refused with exit 3 and one line saying why,
# before anything is compiled or recorded
. "$REPO/tests/cli/lib.sh"
mkdir -p "$TEST_TMP/elsewhere" && echo 'int x;' >"$TEST_TMP/elsewhere/k.c"
k="$TEST_TMP/elsewhere/k.c"
builds_from_nothing "its subject: nothing is compiled (no build/ appears)"
expect_spec_error "error: experiments/x.yaml:4:9: kernel '$k' (variant 'default') is outside the repository; code there has no commit or diff, so its runs could not be reproduced: move it under the repository root" <<Y
name: x
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: $k
Y
[ ! -e build ] || fail "something was built"
