# spec error (yaml-syntax): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:3:6: did not find expected ',' or ']' while parsing a flow sequence" <<'Y'
name: x
problem: [attention_fwd
shape: {B: 1}
Y
