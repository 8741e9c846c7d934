# a variant that fails without an expect: key makes the run exit 1, after recording everything
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/bad.yaml <<'Y'
name: bad
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: good
variants:
  good: {kernel: tests/fixtures/host/correct.c}
  boom: {kernel: tests/fixtures/host/segv.c}
timing: {samples: 3, warmup_ms: 1}
repeats: 1
Y
expect_exit 1 "$EVIDENT" run --no-progress experiments/bad.yaml
expect_contains "$TEST_TMP/out" "boom: crashed - worker killed by SIGSEGV"
[ "$(ls artifacts/runs | wc -l)" = 3 ] || fail "records missing"
