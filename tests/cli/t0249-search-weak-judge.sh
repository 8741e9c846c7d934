# t0249: a search promotes no candidate judged by a weaker judge (eval's
# rule since red team 134: boxes made by a bubblewrap the runner could not
# verify, EVIDENT_BWRAP_UNVERIFIED=1, count for no claim and no
# promotion).  The same search, a candidate 20x faster than its start,
# promotes it with the Debian package's bubblewrap; with a copy of it
# (unverified, let run by the variable) the generation keeps its start and
# says why.  Before: the copy's search promoted the candidate
# (search.c promotable read the batch's verdict alone).  The verified
# store's generation must promote; its confirmation in fresh processes may
# still keep the start under load (a 1 ms sleep ran 1.31x slower in one
# batch beside the sanitized suite at load 2.6, and eval's history rule
# holds that back): either way the weak-judge rule did not stop it.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
mkrepo
cat > experiments/evo.yaml <<'Y'
name: evo
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  base: {SLEEP_US: 20000}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 6, cache: hot}
repeats: 3
search:
  population: 1
  generations: 1
  seed: 8
  tunables:
    SLEEP_US: {choices: [1000, 20000]}
Y
# why STORE: the first generation's why, from its search record
why() {
	python3 -c 'import glob, json, sys
s = json.load(open(glob.glob(sys.argv[1] + "/runs/*-search.json")[0]))
print(s["generations"][0]["why"])' "$1"
}
EVIDENT_STORE=$PWD/verified expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
why verified > "$TEST_TMP/why1" || fail "no search record in the verified store"
grep -Eq "^(g0c0 promoted: faster than base|base kept: not confirmed: .*the generation's batch had said: g0c0 promoted: faster than base)" "$TEST_TMP/why1" ||
	fail "the verified store's generation did not promote g0c0: $(cat "$TEST_TMP/why1")"
cp /usr/bin/bwrap "$TEST_TMP/bwrap-copy"
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-copy EVIDENT_STORE=$PWD/copy \
	expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
why copy > "$TEST_TMP/why2" || fail "no search record in the unverified store"
expect_match "$TEST_TMP/why2" "^base kept: no candidate was faster \(1 faster on runs of a weaker judge \(no box, boxes of a bubblewrap the runner could not verify"
exit 0
