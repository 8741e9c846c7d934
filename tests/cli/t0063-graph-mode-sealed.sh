# t0063 - graph mode (timing.batch > 1) is not judged sealed: every
# launch's inputs exist before the first launch runs, so one launch's
# device code could do the others' work (red team 4, rt4_graph_batch: ok
# and about 7x "faster" on main).  A spec that asks it of a sealed variant
# is refused before anything is built or written, on any machine (exit 3,
# naming the variant and the two ways out); the same spec with the variant
# trust: host passes that check (here it stops at the missing GPU, or runs).
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/g.yaml <<'Y'
name: g
question: Is graph mode refused for a sealed variant?
problem: attention_fwd
backend: cuda
shape: {B: 1, H: 2, S: 64, D: 64}
dtype: fp16
baseline: base
variants:
  base:  {kernel: tests/fixtures/adversary/cuda/honest.cu, trust: host}
  cand:  {kernel: tests/fixtures/adversary/cuda/honest.cu}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 10, batch: 4}
Y
expect_exit 3 "$EVIDENT" run --no-progress experiments/g.yaml
expect_match "$TEST_TMP/err" "variant 'cand': timing.batch 4 .* cannot be judged sealed"
expect_match "$TEST_TMP/err" "use timing.batch 1 .*or .trust: host."
[ ! -e artifacts ] || fail "a refused spec wrote the store"
# the way out the message names
sed -i 's|cand:  {kernel: tests/fixtures/adversary/cuda/honest.cu}|cand:  {kernel: tests/fixtures/adversary/cuda/honest.cu, trust: host}|' experiments/g.yaml
"$EVIDENT" run --no-progress experiments/g.yaml >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ "$rc" -ne 3 ] || { cat "$TEST_TMP/err"; fail "trust: host in graph mode was refused too"; }
! grep -q "cannot be judged sealed" "$TEST_TMP/err" || fail "trust: host variants were called sealed"
# batch 1: sealed is fine
sed -i 's|batch: 4|batch: 1|; s|, trust: host}|}|g' experiments/g.yaml
"$EVIDENT" run --no-progress experiments/g.yaml >"$TEST_TMP/out" 2>"$TEST_TMP/err"
! grep -q "cannot be judged sealed" "$TEST_TMP/err" || fail "batch 1 was refused"
exit 0
