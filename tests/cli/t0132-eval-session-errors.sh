# t0132: evident eval refuses a session it cannot hold, before reading any
# candidate and without writing a record: no spec (2), an unknown
# --reference (2, the spec's variants named), an invalid spec (3), a
# reference that does not build (3, with the compiler's reason), a store
# where candidates' texts go (5), a cuda spec on a machine without a GPU
# (4, no store created).
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/ev.yaml <<'Y'
name: ev
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: naive
variants:
  naive: {kernel: kernels/host/attn_naive.c}
  broken: {kernel: tests/fixtures/host/compile_error.c}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 5}
Y
in='{"kernel": "kernels/host/attn_blocked.c"}'
expect_exit 2 "$EVIDENT" eval </dev/null
expect_contains "$TEST_TMP/err" "error: no spec given"
expect_exit 2 "$EVIDENT" eval --reference nope experiments/ev.yaml <<<"$in"
expect_contains "$TEST_TMP/err" "error: --reference 'nope': no such variant in 'experiments/ev.yaml'; its variants: naive, broken"
sed 's/warmup_ms: 1/warmpu_ms: 1/' experiments/ev.yaml > experiments/bad.yaml
expect_exit 3 "$EVIDENT" eval experiments/bad.yaml <<<"$in"
expect_contains "$TEST_TMP/err" "unknown key 'warmpu_ms'"
expect_exit 3 "$EVIDENT" eval --reference broken experiments/ev.yaml <<<"$in"
expect_contains "$TEST_TMP/err" "error: the reference 'broken' (tests/fixtures/host/compile_error.c) does not build"
expect_contains "$TEST_TMP/err" "no candidate can be judged against it"
# the store where candidates' texts go (or around it): refused before it is made
expect_exit 5 "$EVIDENT" eval --store build/eval-src/store experiments/ev.yaml <<<"$in"
expect_contains "$TEST_TMP/err" "error: the store 'build/eval-src/store' and eval's source directory 'build/eval-src' overlap"
[ ! -e build/eval-src/store ] || fail "the overlapping store was made"
expect_exit 5 "$EVIDENT" eval --store build experiments/ev.yaml <<<"$in"
expect_contains "$TEST_TMP/err" "overlap: give the store another place (--store)"
[ ! -s "$TEST_TMP/out" ] || fail "an answer from a session that never opened"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "a record from a session that never opened"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	cat > experiments/cu.yaml <<'Y'
name: cu
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/attention/attn_naive.cu
Y
	export EVIDENT_STORE=$TEST_TMP/cu-store
	expect_exit 4 "$EVIDENT" eval experiments/cu.yaml <<<"$in"
	expect_contains "$TEST_TMP/err" "error: no_device: experiment 'cu' needs the cuda backend"
	[ ! -e "$TEST_TMP/cu-store" ] || fail "a store was made for a session that cannot run"
fi
exit 0
