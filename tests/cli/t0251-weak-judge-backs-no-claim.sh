# t0251: no claim counts a row judged by a weaker judge than the default
# (red team 136): runs with no box (--unsandboxed) or in boxes of a
# bubblewrap the runner could not verify (EVIDENT_BWRAP_UNVERIFIED=1, a
# copy of the Debian package's) back neither a verdict, nor a value, nor
# validated; the same spec run boxed by the verified bubblewrap backs all
# three.  Before: --unsandboxed forkpre's `faster` was supported at
# 8.172x, validated too, and the unverified box's `faster` at 1.824x (only
# validated set the unverified runs aside).  Runs asked for fewer than
# 10 timed checks back none either (red team 138's zerochecks,
# timed_checks 0: faster 15.649x and validated supported), and the
# export says which rows a weaker judge judged (columns executor,
# weak_judge; red team 138: an unboxed batch read plain "faster").
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
mkrepo git
cat > experiments/two.yaml <<'Y'
name: two
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
baseline: slow
variants:
  slow: {SLEEP_US: 20000}
  fast: {SLEEP_US: 1000}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 6, cache: hot}
repeats: 3
Y
cat > C.md <<'M'
<!-- claim: faster experiment=two a=fast b=slow -->
<!-- claim: validated experiment=two variant=fast -->
M
git add -A && git -c user.email=t@t -c user.name=t commit -qm spec || fail "git commit"
expect_exit 0 "$EVIDENT" run --no-progress --store boxed experiments/two.yaml
expect_exit 0 "$EVIDENT" audit --store boxed C.md
expect_contains "$TEST_TMP/out" "audit: 2 claims: 2 supported"
# the value claim states the boxed batch's own speedup (its median, as
# the record holds it)
sp=$(sed -n 's/.*speedup of fast over slow \([0-9.]*\)x .*/\1/p' "$TEST_TMP/out")
[ -n "$sp" ] || fail "no speedup in the audit's line"
echo "<!-- claim: value experiment=two variant=fast stat=speedup value=${sp}x -->" >> C.md
expect_exit 0 "$EVIDENT" audit --store boxed C.md
expect_contains "$TEST_TMP/out" "audit: 3 claims: 3 supported"
expect_exit 0 "$EVIDENT" run --no-progress --unsandboxed --store unboxed experiments/two.yaml
expect_contains "$TEST_TMP/out" "  - no box (--unsandboxed): the kernels' code ran with the runner's rights; no claim counts these records"
expect_exit 1 "$EVIDENT" audit --store unboxed C.md
expect_contains "$TEST_TMP/out" "audit: 3 claims: 0 supported, 0 contradicted, 0 stale, 3 unsupported"
expect_contains "$TEST_TMP/out" "unsupported: faster fast vs slow: the row of fast (run "
expect_contains "$TEST_TMP/out" ") was judged by a weaker judge than the default: no box (--unsandboxed); no claim counts such a row"
# the export names the weaker judge where the audit sets a row aside
expect_exit 0 "$EVIDENT" export --store unboxed --out ex-unboxed
expect_exit 0 "$EVIDENT" export --store boxed --out ex-boxed
python3 - ex-unboxed/summaries.csv ex-boxed/summaries.csv <<'PY' || fail "the export's judge columns"
import csv, sys
un = list(csv.DictReader(open(sys.argv[1])))
bx = list(csv.DictReader(open(sys.argv[2])))
assert un and bx, (un, bx)
assert all(r["weak_judge"] == "no box (--unsandboxed)" for r in un), [r["weak_judge"] for r in un]
assert all(r["weak_judge"] == "" for r in bx), [r["weak_judge"] for r in bx]
assert all(r["executor"] == "parent_clock" for r in bx), [r["executor"] for r in bx]
PY
# timed_checks 0: boxed by the verified bubblewrap, and still no claim
sed 's/^correctness: {seeds: 1}$/correctness: {seeds: 1, timed_checks: 0}/' experiments/two.yaml > experiments/two0.yaml
grep -q 'timed_checks: 0' experiments/two0.yaml || fail "sed"
git add -A && git -c user.email=t@t -c user.name=t commit -qm zero || fail "git commit"
expect_exit 0 "$EVIDENT" run --no-progress --store zero experiments/two0.yaml
expect_contains "$TEST_TMP/out" "no claim counts these records, and eval and a search promote nothing from them"
expect_exit 1 "$EVIDENT" audit --store zero C.md
expect_contains "$TEST_TMP/out" "audit: 3 claims: 0 supported, 0 contradicted, 0 stale, 3 unsupported"
expect_contains "$TEST_TMP/out" "was judged by a weaker judge than the default: fewer than 10 timed checks a run (timed_checks)"
cp /usr/bin/bwrap "$TEST_TMP/bwrap-copy"
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-copy \
	expect_exit 0 "$EVIDENT" run --no-progress --store copy experiments/two.yaml
expect_contains "$TEST_TMP/out" "  - the boxes were made by a bubblewrap the runner could not verify (EVIDENT_BWRAP_UNVERIFIED=1): no claim counts these records"
expect_exit 1 "$EVIDENT" audit --store copy C.md
expect_contains "$TEST_TMP/out" "audit: 3 claims: 0 supported, 0 contradicted, 0 stale, 3 unsupported"
expect_contains "$TEST_TMP/out" "was judged by a weaker judge than the default: boxes of a bubblewrap the runner could not verify (EVIDENT_BWRAP_UNVERIFIED=1)"
# nor `reproduced`, where the batch and its reproduction ran so (red team
# 138: supported where `faster` on the same batch was not)
B=$(ls copy/runs | grep -- '-batch.json$' | sed 's/\.json$//')
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-copy \
	expect_exit 0 "$EVIDENT" reproduce --no-progress --store copy --threshold 0.5 "$B"
printf '<!-- claim: reproduced run=%s threshold=50%% -->\n' "$B" > R.md
expect_exit 1 "$EVIDENT" audit --store copy R.md
expect_contains "$TEST_TMP/out" "R.md:1: unsupported: reproduced $B: batch $B was judged by a weaker judge than the default: boxes of a bubblewrap the runner could not verify"
exit 0
