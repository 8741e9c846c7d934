# spec error (empty): exit 3, exactly one 'file:line:col: message' line, nothing written to the store
. "$REPO/tests/cli/lib.sh"
expect_spec_error "error: experiments/x.yaml:1:1: the spec is empty; see README.md 'Spec reference'" <<'Y'

Y
