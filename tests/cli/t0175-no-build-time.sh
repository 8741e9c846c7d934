# t0175 - an object holds no time of its build: kernels compile with
# -Werror=date-time (host: cc; CUDA: nvcc -Xcompiler), so __DATE__, __TIME__
# and __TIMESTAMP__, spelled out or pasted together by a macro, fail the
# build with the compiler's reason.  The build cache serves the first
# build's bytes to every later run, so before, red team 52's build_clock
# (8x slower once the time it was compiled at was AGE_S old) had an
# incumbent slow from its first batch: eval promoted 10 of 12 candidates
# that were not faster, and a search confirmed a 9.3x promotion
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/stamp.yaml <<'Y'
name: stamp
problem: rowsum
backend: host
baseline: honest
shape: {R: 64, C: 256}
variants:
  clock: {kernel: tests/fixtures/adversary/host/redteam52/build_clock.c, AGE_S: 30, REPS: 8, NOP: 1, expect: build_failed}
  honest: {kernel: tests/fixtures/adversary/host/shared_probe.c, expect: ok}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/stamp.yaml
grep -q 'date-time' "$TEST_TMP/out" || fail "no date-time reason in the summary: $(grep -h 'clock' "$TEST_TMP/out" | head -3)"
r=$(grep -l '"variant": "clock"' $(grep -L '"kind": "batch"' artifacts/runs/*.json))
grep -q '"outcome": "build_failed"' $r || fail "build_clock was not build_failed"
