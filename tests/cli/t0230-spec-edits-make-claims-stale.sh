# t0230 - red team 126 (tests/fixtures/adversary/host/redteam126/README.md,
# finding 1): the stale check compared each variant's kernel file and
# parameters only, so a spec edit of what every variant runs under
# (`flags:`, the shape, timing.cache), a spec renamed (`git mv`) or a
# variant renamed left claims supported where the next run of the spec
# contradicted them.  Now the spec the run recorded (spec.object) and the
# file at its recorded path are compared as spec_load resolves them
# (spec.c spec_definition_of_text): each of those edits makes both claims
# stale, saying what changed; edits of how much is run (samples, repeats),
# of words, and a new variant leave them supported.  One batch of
# sleepy.c; no claim here weighs a timing against another.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/sl.yaml <<'Y'
# the stale check's probe
name: sl
question: Is a 2 ms sleep faster than a 3 ms one?
problem: attention_fwd
backend: host
shape: {B: 1, H: 2, S: 64, D: 32}
dtype: fp32
baseline: slow
variants:
  slow: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 3000}
  fast: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 2000}
correctness: {seeds: 2}
timing: {warmup_ms: 2, samples: 20, cache: hot}
limits: {timeout_s: 60}
repeats: 3
Y
cp experiments/sl.yaml sl.orig
expect_exit 0 "$EVIDENT" run --no-progress experiments/sl.yaml
batch=$(basename "$(ls "$EVIDENT_STORE"/runs/*-batch.json | head -1)" .json)
# each side's recorded median, for value claims that state it
printf '<!-- claim: value experiment=sl variant=slow stat=median_us value=1us run=%s -->\n<!-- claim: value experiment=sl variant=fast stat=median_us value=1us -->\n' \
	"$batch" > probe.md
"$EVIDENT" audit --no-untraced probe.md > probe.out 2>&1
slow=$(grep 'probe.md:1:' probe.out | grep -oE 'recorded [0-9.]+' | awk '{print $2}')
fast=$(grep 'probe.md:2:' probe.out | grep -oE 'recorded [0-9.]+' | awk '{print $2}')
[ -n "$slow" ] && [ -n "$fast" ] || { cat probe.out; fail "no recorded medians"; }
# the claim on slow pinned to the batch; the one on fast unpinned (the
# experiment's latest result, query_latest_result)
cat > c.md <<M
<!-- claim: value experiment=sl variant=slow stat=median_us value=${slow}us run=$batch -->
<!-- claim: value experiment=sl variant=fast stat=median_us value=${fast}us -->
M
audit() { # audit NAME: c.md's audit into NAME.out
	"$EVIDENT" audit --no-untraced c.md > "$1.out" 2>&1
}
audit control
expect_match control.out "c.md:1: supported: value sl/slow"
expect_match control.out "c.md:2: supported: value sl/fast"
restore() { cp sl.orig experiments/sl.yaml; }
# stale: edit WHAT SED-EXPR: the edit makes both claims stale, naming WHAT
stale_after() {
	local what=$1 name=$2; shift 2
	restore
	sed -i "$@" experiments/sl.yaml
	audit "$name"
	expect_match "$name.out" "c.md:1: stale: value sl/slow median_us=.*: the spec 'experiments/sl.yaml' now defines variant 'slow' otherwise than run '[^']*' ran it \(changed: $what\)"
	expect_match "$name.out" "c.md:2: stale: value sl/fast median_us=.*: the spec 'experiments/sl.yaml' now defines variant 'fast' otherwise than run '[^']*' ran it \(changed: $what\)"
}
# A: a compiler flag for every variant (kernel files, parameters unchanged)
stale_after flags flags -e 's/^dtype: fp32$/dtype: fp32\nflags: [-DSOMETHING]/'
# E: another shape, another cache
stale_after shape shape -e 's/S: 64/S: 128/'
stale_after cache cache -e 's/cache: hot/cache: cold/'
# a variant's parameter, as red team 122 found (both: the row's own check too)
restore
sed -i 's/SLEEP_US: 2000/SLEEP_US: 3900/' experiments/sl.yaml
audit param
expect_match param.out "c.md:1: supported: value sl/slow"
expect_match param.out "c.md:2: stale: value sl/fast .*now defines variant 'fast' otherwise than run '[^']*' ran it \(changed: parameter SLEEP_US\)"
# B: the spec renamed (the edit above kept): its path names no file
mv experiments/sl.yaml experiments/sl-v2.yaml
audit renamed
expect_match renamed.out "c.md:1: stale: value sl/slow .*the spec 'experiments/sl.yaml' that run '[^']*' ran is gone \(moved, renamed or deleted\)"
expect_match renamed.out "c.md:2: stale: value sl/fast .*the spec 'experiments/sl.yaml' that run '[^']*' ran is gone"
rm experiments/sl-v2.yaml
# D: the variant renamed, its definition kept: no variant of the spec is
# the `fast` that ran; slow is as it ran
restore
sed -i 's/^  fast:/  quick:/' experiments/sl.yaml
audit variant
expect_match variant.out "c.md:1: supported: value sl/slow"
expect_match variant.out "c.md:2: stale: value sl/fast .*the spec 'experiments/sl.yaml' no longer defines variant 'fast' that run '[^']*' ran \(renamed or removed\)"
# a spec that no longer loads
restore
echo 'warmpu: 1' >> experiments/sl.yaml
audit broken
expect_match broken.out "c.md:1: stale: value sl/slow .*the spec 'experiments/sl.yaml' that run '[^']*' ran does not load now"
# what leaves them supported: how much is run, words, one more variant
restore
sed -i -e 's/samples: 20/samples: 40/' -e 's/repeats: 3/repeats: 5/' -e 's/seeds: 2/seeds: 3/' \
	-e 's/timeout_s: 60/timeout_s: 90/' -e 's/^question: .*/question: How long do the sleeps take?/' \
	-e 's/^# the stale check.s probe/# another comment/' experiments/sl.yaml
echo '  mid: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 2500}' > mid.line
sed -i '/^  fast:/r mid.line' experiments/sl.yaml
audit amounts
expect_match amounts.out "c.md:1: supported: value sl/slow"
expect_match amounts.out "c.md:2: supported: value sl/fast"
grep -q '^  mid:' experiments/sl.yaml || fail "the new variant was not written"
