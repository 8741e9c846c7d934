# evident wait counts each variant not as expected once: a batch with one
# variant that ends nan without an expect: and one that ends ok but expected
# nan fails `wait` (exit 1) both when it gathers the batch and when it prints
# the summary of a batch gathered before (issue 23: that path summed strcmp
# results, and "ok" vs "nan" (+1) and "nan" vs "ok" (-1) made 0 failures).
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_up --cpus 2
mkrepo
cat > experiments/mixed.yaml <<'Y'
name: mixed
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: good
variants:
  good:   {kernel: tests/fixtures/host/correct.c}
  broken: {kernel: tests/fixtures/host/nan.c}
  hoped:  {kernel: tests/fixtures/host/correct.c, expect: nan}
timing: {samples: 3, warmup_ms: 1}
limits: {timeout_s: 30}
Y
expect_exit 0 "$EVIDENT" run --no-progress --slurm experiments/mixed.yaml
batch=$(sed -n 's/^batch \([^:]*\): .*/\1/p' "$TEST_TMP/out")
[ -n "$batch" ] || { cat "$TEST_TMP/out"; fail "no batch id"; }

# the first wait gathers the batch
expect_exit 1 "$EVIDENT" wait --no-progress --timeout 50 "$batch"
expect_contains "$TEST_TMP/out" "broken: nan"
expect_contains "$TEST_TMP/out" "hoped: ok (UNEXPECTED: expected nan)"
expect_contains "$TEST_TMP/out" "records: 3 variant(s) and batch $batch in "
[ -f "artifacts/runs/$batch.json" ] || fail "no batch record"
cp "$TEST_TMP/out" first.txt

# the second prints what was committed, and exits as the first did
expect_exit 1 "$EVIDENT" wait --no-progress "$batch"
diff first.txt "$TEST_TMP/out" || fail "the second wait's summary differs from the first's"
