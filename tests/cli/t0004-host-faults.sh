# each planted fault (segfault, at a correctness launch and in a timed one, abort, hang, wrong answer, NaN, unwritten, flaky, compile error, init failure) gets its outcome; the rest still run
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-faults.yaml
for pair in "segv crashed" "segv_timed crashed" "abort crashed" "hang timeout" "wrong wrong_output" "nan nan" \
	"partial unwritten_output" "flaky flaky" "compile_error build_failed" "init_fail init_failed" "correct ok"; do
	set -- $pair
	grep -qE "^$1 +$2 " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "variant $1 is not $2"; }
done
# a death says how far the worker got (issue 23: only the signal): both die
# in their first launch, which the protocol cannot tell from init (init
# sends no message)
seed0="during init or correctness seed 0 (the kernel loaded; no seed output yet)"
expect_contains "$TEST_TMP/out" "segv: crashed - worker killed by SIGSEGV $seed0 (expected)"
expect_contains "$TEST_TMP/out" "abort: crashed - worker killed by SIGABRT $seed0 (expected)"
expect_contains "$TEST_TMP/out" "s; the worker was killed $seed0 (expected)"
expect_contains "$TEST_TMP/out" "no_such_field"
# a crash inside the parent-timed samples is a crash, not a protocol violation
expect_match "$TEST_TMP/out" "segv_timed: crashed - worker killed by SIGSEGV .*(warm-up|timing)"
[ "$(ls artifacts/runs | wc -l)" = 12 ] || fail "expected 11 variant records + 1 batch"
expect_exit 0 "$EVIDENT" verify
