# t0120: a variant's lineage (spec key lineage:) reaches every run record
# of it, show prints it, and show --lineage follows the parents through the
# store: a variant's name in the same batch, a run id of an earlier batch,
# and a parent that is not there (said, the chain stops).  A misspelled
# lineage key is refused with a did-you-mean before anything runs.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/l1.yaml <<'Y'
name: lin
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
baseline: a
variants:
  a: {SLEEP_US: 2000}
  b: {SLEEP_US: 1000, lineage: {parent: a, mutation: "SLEEP_US 2000->1000", origin: "by hand"}}
timing: {samples: 3, warmup_ms: 1}
correctness: {seeds: 1}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/l1.yaml
run_of() { grep -l "\"variant\": \"$1\"" artifacts/runs/*.json | grep -v -- -batch | head -1 | xargs basename | sed 's/\.json$//'; }
A=$(run_of a); B=$(run_of b)
[ -n "$A" ] && [ -n "$B" ] || fail "runs a and b not found"
# the record: lineage as written, null where the spec gave none
expect_eq "$(jget artifacts/runs/$B.json 'd["lineage"]["parent"]')" a
expect_eq "$(jget artifacts/runs/$B.json 'd["lineage"]["mutation"]')" "SLEEP_US 2000->1000"
expect_eq "$(jget artifacts/runs/$B.json 'd["lineage"]["origin"]')" "by hand"
expect_eq "$(jget artifacts/runs/$B.json 'd["lineage"]["generation"]')" None
expect_eq "$(jget artifacts/runs/$A.json 'd["lineage"]')" None
expect_exit 0 "$EVIDENT" show "$B"
expect_contains "$TEST_TMP/out" "lineage    parent a, mutation SLEEP_US 2000->1000, origin by hand (evident show --lineage $B)"

# a child in a later batch names b by its run id
cat > experiments/l2.yaml <<Y
name: lin
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  c: {SLEEP_US: 500, lineage: {parent: $B, mutation: "SLEEP_US 1000->500", origin: model-x}}
timing: {samples: 3, warmup_ms: 1}
correctness: {seeds: 1}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/l2.yaml
C=$(run_of c)
expect_exit 0 "$EVIDENT" show --lineage "$C"
expect_contains "$TEST_TMP/out" "lineage of $C (3 runs, child first)"
expect_contains "$TEST_TMP/out" "  $C  c  ok"
expect_contains "$TEST_TMP/out" "  <- $B  b  ok"
expect_contains "$TEST_TMP/out" "  <- $A  a  ok"
expect_contains "$TEST_TMP/out" "(no lineage: a root)"
expect_not_contains "$TEST_TMP/out" "the chain stops"
# the lines come child first: c, then b, then a
[ "$(grep -n -- "$C  c" "$TEST_TMP/out" | cut -d: -f1)" -lt "$(grep -n -- "$B  b" "$TEST_TMP/out" | cut -d: -f1)" ] &&
	[ "$(grep -n -- "$B  b" "$TEST_TMP/out" | cut -d: -f1)" -lt "$(grep -n -- "$A  a" "$TEST_TMP/out" | cut -d: -f1)" ] ||
	fail "the chain is not child first"
# of a batch: each variant's lineage and the run its parent resolves to
BATCH=$(ls artifacts/runs | grep -- '-batch.json$' | head -1 | sed 's/\.json$//')
expect_exit 0 "$EVIDENT" show --lineage "$BATCH"
expect_contains "$TEST_TMP/out" "parent run $A"

# a parent that is not in the store: said, and the chain stops there
cat > experiments/l3.yaml <<'Y'
name: lin
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  d: {SLEEP_US: 500, lineage: {parent: nowhere, origin: elsewhere}}
timing: {samples: 3, warmup_ms: 1}
correctness: {seeds: 1}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/l3.yaml
D=$(run_of d)
expect_exit 0 "$EVIDENT" show --lineage "$D"
expect_contains "$TEST_TMP/out" "lineage of $D (1 run, child first)"
expect_contains "$TEST_TMP/out" "the chain stops: parent 'nowhere' is not in this store"

# a misspelled key of a lineage: one error line, nothing run
n=$(ls artifacts/runs | wc -l)
sed -i 's/parent: nowhere/parnet: nowhere/' experiments/l3.yaml
expect_exit 3 "$EVIDENT" run --no-progress experiments/l3.yaml
expect_contains "$TEST_TMP/err" "experiments/l3.yaml:6:32: unknown key 'parnet' in 'lineage' of variant 'd' (did you mean 'parent'?)"
expect_eq "$(ls artifacts/runs | wc -l)" "$n" "no record after a spec error"
exit 0
