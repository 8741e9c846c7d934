# paper-lib.sh - helpers for the t60xx paper/audit/export tests: a tiny
# repository in $TEST_TMP (kernel ABI header, the fixture kernel, the
# fixture specs) and a quick run of the fixture experiment into ./store.
setup_tiny_repo() {
	mkdir -p kernels
	cp "$REPO/kernels/evident_kernel.h" kernels/
	cp -r "$REPO/problems" .
	cp "$REPO/tests/fixtures/paper/kernels/tiny_attn.c" kernels/
	cp "$REPO/tests/fixtures/paper/"tiny*.yaml .
	export EVIDENT_STORE="$TEST_TMP/store"
}
# run_tiny SPEC: record one batch; fails the test if evident run could not record it
run_tiny() {
	"$EVIDENT" run "$1" >"$TEST_TMP/run.out" 2>&1
	local rc=$?
	[ $rc -le 1 ] || { cat "$TEST_TMP/run.out"; fail "'evident run $1' exited $rc"; }
}
