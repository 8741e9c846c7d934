# variants differing only in a parameter the kernel ignores: the summary and the record name that parameter, once for the group
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/k.yaml <<'Y'
name: k
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/knob.c
baseline: u1
variants:
  u1: {UNUSED: 1}
  u2: {UNUSED: 2}
  u3: {UNUSED: 3}
timing: {samples: 3, warmup_ms: 1}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/k.yaml
expect_contains "$TEST_TMP/out" "parameter UNUSED has no effect on the compiled code (variants u1, u2 and u3 differ in it, binaries identical)"
# one note for the three, not one a pair
n=$(grep -c "parameter UNUSED has no effect" "$TEST_TMP/out")
[ "$n" = 1 ] || fail "$n notes for one parameter of one group, expected 1"
# the batch record carries the note (a run cannot know the other variants)
grep -l 'parameter UNUSED has no effect' artifacts/runs/*-batch.json >/dev/null || fail "the batch record lacks the note"
# the kernel does not echo UNUSED either: recorded, and said in the summary
grep -q '"UNUSED"' $(grep -l '"variant": "u2"' artifacts/runs/*.json | grep -v batch | head -1) || fail "not_echoed missing"
expect_contains "$TEST_TMP/out" "u2: parameter UNUSED was not echoed by the kernel"
