# t0256: a search promotes only what eval would: faster in more than half
# of the store's batches of the two codes (red team 140: a search run
# again from the same start promoted g0c0 at 2.048x, confirmed 1.751x,
# where its four earlier runs had measured the same code 0.617-0.653x;
# eval weighed the same store 3 of 7 and did not promote).  The
# candidate (sleepy_wall FAST 1) sleeps 40 ms a launch before WALL and
# 1 ms after it; the start (FAST 0) sleeps 10 ms always.  Two searches before
# WALL read the candidate slower; the one after it reads it faster twice
# (its generation and its confirmation), 2 of 4: kept, and the search
# says so.  A search of a fresh store after WALL promotes it (2 of 2).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git
wall=$(( $(date +%s) + 100 ))
cat > experiments/evo.yaml <<Y
name: evo
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy_wall.c
variants:
  base: {FAST: 0, WALL: $wall}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 6, cache: hot}
repeats: 3
search:
  population: 1
  generations: 1
  seed: 8
  tunables:
    FAST: {choices: [0, 1]}
Y
git add -A && git -c user.email=t@t -c user.name=t commit -qm spec || fail "git commit"
# why STORE N: generation 0's why in the store's Nth search record (by time)
why() {
	python3 -c 'import glob, json, sys
s = json.load(open(sorted(glob.glob(sys.argv[1] + "/runs/*-search.json"))[int(sys.argv[2])]))
print(s["generations"][0]["why"])' "$1" "$2"
}
for i in 0 1; do
	EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
	why st $i > "$TEST_TMP/why$i" || fail "no search record $i"
	grep -q "^base kept: no candidate was faster" "$TEST_TMP/why$i" ||
		{ cat "$TEST_TMP/why$i"; fail "search $i before WALL promoted"; }
done
[ "$(date +%s)" -lt "$wall" ] || skip "the two searches ran past WALL ($(( $(date +%s) - wall )) s late): the machine is too slow for this test's clock"
while [ "$(date +%s)" -le "$wall" ]; do sleep 1; done
EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
why st 2 > "$TEST_TMP/why2" || fail "no third search record"
# its precondition: the generation's own batch read the candidate faster
# (1 ms against 10 ms; a sanitized runner under make test's load once
# read it inconclusive)
if grep -q "^base kept: no candidate was faster" "$TEST_TMP/why2"; then
	skip "the search after WALL did not read the candidate faster here: $(cat "$TEST_TMP/why2")"
fi
# and its confirmation batch read it faster too: under load its three
# fresh processes a side once read inconclusive (4.27x [1.94, 9.55], p
# 0.073: CI of 2026-12-06, plain pass; twice in local runs), where the
# store's weighing is never reached.  Once more in the same store: its
# two slower batches still outvote (3 of 6 at most), and a second such
# reading is the machine's
if grep -q "^base kept: not confirmed: the confirmation batch of fresh processes .* said inconclusive" "$TEST_TMP/why2"; then
	cat "$TEST_TMP/why2"
	EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
	why st 3 > "$TEST_TMP/why2" || fail "no fourth search record"
	grep -q "^base kept: no candidate was faster\|^base kept: not confirmed: the confirmation batch of fresh processes .* said inconclusive" "$TEST_TMP/why2" &&
		skip "the searches after WALL did not confirm the candidate faster under this load (twice): $(cat "$TEST_TMP/why2")"
	expect_match "$TEST_TMP/why2" "^base kept: not confirmed: .* but faster in only 3 of the store's 6 batches of the two codes"
else
	expect_match "$TEST_TMP/why2" "^base kept: not confirmed: .* but faster in only 2 of the store's 4 batches of the two codes"
fi
# a fresh store after WALL: 2 of 2, promoted
EVIDENT_STORE=$PWD/fresh expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
why fresh 0 > "$TEST_TMP/why3" || fail "no search record in the fresh store"
# (the same precondition in the fresh store: CI of 2026-12-06 02:05 read
# the generation's batch inconclusive in the sanitized pass)
grep -q "^base kept: no candidate was faster" "$TEST_TMP/why3" &&
	skip "the fresh store's search did not read the candidate faster here: $(cat "$TEST_TMP/why3")"
# and its confirmation batch's three fresh processes a side: under load
# one slow process widens its CI past 1 (CI of 2026-12-06 16:17, beside
# three red teams, sanitized: 9.154x [1.542, 17.019], p 0.087); once more
# in another fresh store, and a second such reading is the machine's
if grep -q "^base kept: not confirmed: the confirmation batch of fresh processes .* said inconclusive" "$TEST_TMP/why3"; then
	cat "$TEST_TMP/why3"
	EVIDENT_STORE=$PWD/fresh2 expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
	why fresh2 0 > "$TEST_TMP/why3" || fail "no search record in the second fresh store"
	grep -q "^base kept: no candidate was faster\|^base kept: not confirmed: the confirmation batch of fresh processes .* said inconclusive" "$TEST_TMP/why3" &&
		skip "the fresh stores' searches did not confirm the candidate under this load (twice): $(cat "$TEST_TMP/why3")"
fi
expect_match "$TEST_TMP/why3" "^g0c0 promoted: faster than base.*confirmed in fresh processes"
exit 0
