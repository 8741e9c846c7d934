# two runners writing to one store at the same time, 20 runs each: 40 variant records, and verify passes
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/c.yaml <<'Y'
name: c
problem: attention_fwd
shape: {B: 1, H: 1, S: 8, D: 8}
kernel: kernels/host/attn_blocked.c
baseline: BLOCK_M-1_BLOCK_N-1
grid: {BLOCK_M: [1, 2, 4, 8, 16], BLOCK_N: [1, 2, 4, 8]}
correctness: {seeds: 1}
timing: {samples: 2, warmup_ms: 0}
Y
"$EVIDENT" run --no-progress experiments/c.yaml > "$TEST_TMP/a" 2>&1 &
a=$!
"$EVIDENT" run --no-progress experiments/c.yaml > "$TEST_TMP/b" 2>&1 &
b=$!
wait $a || { cat "$TEST_TMP/a"; fail "runner a failed"; }
wait $b || { cat "$TEST_TMP/b"; fail "runner b failed"; }
n=$(grep -l '"kind": "variant"' artifacts/runs/*.json | wc -l)
expect_eq "$n" 40 "variant records"
expect_exit 0 "$EVIDENT" verify
