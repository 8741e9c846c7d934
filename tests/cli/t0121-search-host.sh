# t0121: a two-generation search on the host (spec key search:).  Its
# kernel is a sleep (tests/fixtures/host/sleepy.c), so the verdicts do not
# depend on how busy the machine is (sleeps of 4 to 16 ms, 4 repeats: a
# load average of 27 on 2 CPUs blurred sleeps of 2 to 8 ms with 3 repeats
# into inconclusive): SLEEP_US reaches the binary, UNUSED does not.  Seed 8
# makes generation 0 one candidate of each:
#   g0c0  SLEEP_US 16000->4000  faster than base: promoted
#   g0c1  UNUSED 1->2           same device code as base: reported, never promoted
# Checked: the selection (and that generation 1 starts from the promoted
# one), the promotion's confirmation in a batch of fresh processes (red
# team 48: a promotion stands only when a second batch says faster too), the lineage in the records and show --lineage of a run and of the
# search, generation 1's candidates (seed 8's draw), and, in a second
# store, the same candidates from the same seed and a budget that stops
# the search before generation 1.
. "$REPO/tests/cli/lib.sh"
runs_alone "the selection rests on verdicts between sleeps of 16 and 4 ms"
mkrepo
cat > experiments/evo.yaml <<'Y'
name: evo
question: Which SLEEP_US is fastest, found by a search?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  base: {SLEEP_US: 16000, UNUSED: 1}
correctness: {seeds: 1, seed: 5}
timing: {warmup_ms: 1, samples: 5, cache: hot}
repeats: 4
limits: {timeout_s: 20}
search:
  population: 2
  generations: 2
  seed: 8
  tunables:
    SLEEP_US: {range: [4000, 16000], step: 4000}
    UNUSED: {choices: [1, 2]}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
cp "$TEST_TMP/out" run1.out
# a 4 ms sleep against a 16 ms one is faster unless the machine is busy
# enough to stretch a sleep past both (make test beside helpers at a
# load above 100 once, 2026-12-02: base 20.0 ms, g0c0 inconclusive):
# then the run itself says its comparisons span a busy period
if ! grep -q "generation 0: g0c0 promoted: faster than base" run1.out &&
	grep -q "g0c0 vs base: the comparison spans a busy period" run1.out; then
	skip "g0c0 (4 ms) was not found faster than base (16 ms) in a busy period (load $(cut -d' ' -f1 /proc/loadavg))"
fi
expect_contains run1.out "generation 0: g0c0 promoted: faster than base"
expect_contains run1.out "generation 0: confirming g0c0 against base in fresh processes"
expect_match run1.out 'generation 0: g0c0 promoted: faster than base, .*; confirmed in fresh processes \(batch [^)]*-batch\): '
expect_contains run1.out "no effect: UNUSED 1->2 did not reach the binary: its device code is the best's (base"
S=$(ls artifacts/runs | grep -- '-search.json$' | sed 's/\.json$//')
[ "$(echo "$S" | wc -w)" = 1 ] || fail "expected one search record, got: $S"
rec=artifacts/runs/$S.json
g0='d["generations"][0]["candidates"]'
k='d["generations"][0]["confirmation"]'
jexpect $rec <<E
[c['id'] for c in $g0] => ['base', 'g0c0', 'g0c1']
$g0[1]['mutation'] => SLEEP_US 16000->4000
$g0[1]['comparison']['verdict'] => faster
$g0[1]['promoted'] => True
$g0[2]['mutation'] => UNUSED 1->2
$g0[2]['promoted'] => False
$g0[2]['binary_sha256'] == $g0[0]['binary_sha256'] => True
'did not reach the binary' in str($g0[2]['no_effect']) => True
d["generations"][0]["best_out"] => g0c0
# the confirmation: g0c0 against base again, its own batch, faster there too
$k['challenger'] => g0c0
$k['confirmed'] => True
$k['outcome'] => ok
$k['comparison']['verdict'] => faster
$k['median_us'] < $k['incumbent_median_us'] => True
d["generations"][0]["cost"]["runs"] => 20
# generation 1: the promoted one is the best going in, and every candidate's parent
d["generations"][1]["best_in"] => g0c0
[c["parent"] for c in d["generations"][1]["candidates"][1:]] == ["g0c0"] * (len(d["generations"][1]["candidates"]) - 1) => True
len(d["generations"][1]["candidates"]) > 1 => True
d["stopped"] => generations
d["best"]["id"] in ("g0c0", "g1c0", "g1c1") => True
E
kb=$(jget $rec "$k['batch']")
[ "$kb" != "$(jget $rec 'd["generations"][0]["batch"]')" ] || fail "the confirmation reused the generation's batch"
[ -f "artifacts/runs/$kb.json" ] || fail "the confirmation batch $kb is not in the store"
expect_eq "$(jget artifacts/runs/$kb.json 'sorted(r["variant"] for r in d["variants"])')" "['base', 'g0c0']"
# each generation is an ordinary batch, named in the record
for g in 0 1; do
	b=$(jget $rec "d['generations'][$g]['batch']")
	[ -f "artifacts/runs/$b.json" ] || fail "generation $g's batch $b is not in the store"
	expect_exit 0 "$EVIDENT" show "$b"
	expect_contains "$TEST_TMP/out" "search     generation $g of $S (evident show $S)"
done

# lineage: a run of generation 1 names the search, its generation and its parent
c=$(jget $rec 'd["generations"][1]["candidates"][1]["run"]')
expect_eq "$(jget artifacts/runs/$c.json 'd["lineage"]["search"]')" "$S"
expect_eq "$(jget artifacts/runs/$c.json 'd["lineage"]["generation"]')" 1
expect_eq "$(jget artifacts/runs/$c.json 'd["lineage"]["parent"]')" g0c0
expect_exit 0 "$EVIDENT" show --lineage "$c"
expect_contains "$TEST_TMP/out" "(4 runs, child first)"
expect_contains "$TEST_TMP/out" "  <- $(jget $rec 'd["generations"][1]["candidates"][0]["run"]')  g0c0  ok"
expect_contains "$TEST_TMP/out" "  <- $(jget $rec "$g0[1]['run']")  g0c0  ok"
expect_contains "$TEST_TMP/out" "  <- $(jget $rec "$g0[0]['run']")  base  ok"
# the search's tree: g0c0 and g0c1 under base, generation 1 under g0c0
expect_exit 0 "$EVIDENT" show --lineage "$S"
cp "$TEST_TMP/out" tree.out
expect_contains tree.out "base (the start, generation 0)"
expect_match tree.out '^\+- g0c0 SLEEP_US 16000->4000 \(generation 0\): ok, .* faster;.* confirmed in fresh processes \(ok, [0-9.]*x \[.*\], faster, batch [^)]*\); promoted; the best after generation'
expect_match tree.out '^`- g0c1 UNUSED 1->2 \(generation 0\): ok, .*; no effect: UNUSED 1->2 did not reach the binary'
expect_match tree.out '^\|  [+`]- g1c0 '
expect_exit 0 "$EVIDENT" show "$S"
expect_contains "$TEST_TMP/out" "search     $S (evident-search/1)"
expect_contains "$TEST_TMP/out" "settings   population 2, generations 2, elite 1, mutations 1, seed 8"
expect_contains "$TEST_TMP/out" "stopped    generations: all 2 generation(s) ran"
expect_match "$TEST_TMP/out" '^  g0c0 +SLEEP_US 16000->4000 +ok .* faster  PROMOTED$'
expect_contains "$TEST_TMP/out" "  -> g0c0 promoted: faster than base, "
expect_exit 0 "$EVIDENT" ls
expect_not_contains "$TEST_TMP/out" "-search"
expect_exit 0 "$EVIDENT" ls --searches
expect_contains "$TEST_TMP/out" "$S"
expect_exit 0 "$EVIDENT" verify

# the same seed in another store: the same candidates; a budget of half a
# CPU-second lets generation 0 run (nothing to estimate it from) and stops
# the search before generation 1
sed 's/^  seed: 8$/  seed: 8\n  budget: {cpu_s: 0.5}/' experiments/evo.yaml > experiments/evo-budget.yaml
grep -q 'budget: {cpu_s: 0.5}' experiments/evo-budget.yaml || fail "the budget did not go into the spec"
EVIDENT_STORE="$TEST_TMP/store2" expect_exit 0 "$EVIDENT" run --no-progress experiments/evo-budget.yaml
expect_contains "$TEST_TMP/out" "stopped: budget (generation 1 would take the spending to about"
S2=$(ls "$TEST_TMP/store2/runs" | grep -- '-search.json$' | sed 's/\.json$//')
rec2=$TEST_TMP/store2/runs/$S2.json
jexpect $rec2 <<'E'
d["stopped"] => budget
d["budget"]["stopped"] => True
d["budget"]["unit"] => cpu_s
len(d["generations"]) => 1
d["budget"]["spent"] > 0.5 => True
E
same='[(c["id"], c["kernel"], c["params"], c["mutation"]) for c in d["generations"][0]["candidates"]]'
expect_eq "$(jget $rec2 "$same")" "$(jget $rec "$same")"
# generation 1's candidates: seed 8's draw from g0c0 (the promoted one,
# checked above), the same in every run.  A literal, not a third store's
# rerun of the whole search (a third of this test's CPU: sanitized, alone,
# 17.2-18.7 s with it, 11.8-12.5 without, 3 runs each): a draw that changed between two runs (a seed from the clock,
# the run's timings) differs from the literal too, and one that changes
# with the code fails here until the literal is updated.
all='[[(c["id"], c["params"]["SLEEP_US"], c["params"]["UNUSED"], c["mutation"], c["parent"]) for c in g["candidates"]] for g in d["generations"]]'
expect_eq "$(jget $rec "$all")" "[[('base', '16000', '1', None, None), ('g0c0', '4000', '1', 'SLEEP_US 16000->4000', 'base'), ('g0c1', '16000', '2', 'UNUSED 1->2', 'base')], [('g0c0', '4000', '1', 'none: the best so far, measured again', 'g0c0'), ('g1c0', '12000', '1', 'SLEEP_US 4000->12000', 'g0c0'), ('g1c1', '4000', '2', 'UNUSED 1->2', 'g0c0')]]"
expect_eq "$(jget $rec '[c["kernel"] for g in d["generations"] for c in g["candidates"]]')" "$(python3 -c 'print(["tests/fixtures/host/sleepy.c"] * 6)')"
exit 0
