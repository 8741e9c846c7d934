# t0095: a verdict is about the kernel, not about one process.  With one
# repeat a side, a variant twenty times slower than its baseline (its sleeps
# are) is still no `slower`: the run warns before it starts, its summary, record, `show`,
# PAPER.md table and audit all say `inconclusive` and why (the variance
# between processes is unknown); by default the host runs 3 repeats, and
# then the same variant is decided.
. "$REPO/tests/cli/lib.sh"
runs_alone_light "timed verdicts (it mostly sleeps: two such tests share a CPU in make test's alone phase)"
mkrepo
# times that are sleeps (sleepy.c), twenty times apart: no load turns them
# around (six times apart, a fresh clone's make test beside five busy
# helpers, load 13 on 2 CPUs, measured base 7.4 ms [3.3, 9.3] and slow
# 21.1 ms: inconclusive)
cat >tiny.yaml <<'EOF'
name: tiny
question: Does a kernel that sleeps twenty times as long take longer?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 32, D: 16}
baseline: base
variants:
  base: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 3000}
  slow: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 60000}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 10, cache: hot}
limits: {timeout_s: 20}
EOF

# one repeat: the numbers, no verdict
expect_exit 0 "$EVIDENT" run --repeats 1 tiny.yaml
expect_contains "$TEST_TMP/err" "warning: 1 repeat per variant: the comparisons will be inconclusive, as one process a side says nothing of the variance between processes; use --repeats 3 or more"
expect_match "$TEST_TMP/out" '^slow +ok .*x \[.*\] +[0-9.e-]+ +inconclusive \(1 repeat\)$'
expect_not_contains "$TEST_TMP/out" "slower"
expect_contains "$TEST_TMP/out" "1 comparison of one repeat a side: the variance between processes is unknown, so it is inconclusive"
B1=$(sed -n 's/^records: .* and batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$B1" ] || fail "no batch id in the output"
expect_exit 0 "$EVIDENT" show --json "$B1"
python3 - "$TEST_TMP/out" <<'PY' || fail "the record's comparison is not inconclusive for one repeat"
import json, sys
b = json.load(open(sys.argv[1]))
c = [v for v in b["variants"] if v["variant"] == "slow"][0]["comparison"]
assert c["repeats"] == [1, 1], c["repeats"]
assert c["verdict"] == "inconclusive", c["verdict"]
assert c["verdict_reason"].startswith("1 repeat: the variance between processes is unknown"), c["verdict_reason"]
assert c["speedup"]["ratio"] < 0.5, c["speedup"]  # the numbers are still there
PY
expect_exit 0 "$EVIDENT" show "$B1"
expect_match "$TEST_TMP/out" '^slow .* inconclusive: 1 repeat: the variance between processes is unknown'
printf '<!-- evident:table experiment=tiny run=%s -->\n<!-- /evident:table -->\n' "$B1" >P.md
expect_exit 0 "$EVIDENT" paper P.md
expect_contains P.md "| **inconclusive**: 1 repeat a side, the variance between processes is unknown |"
printf 'Slow loses. <!-- claim: slower experiment=tiny a=slow b=base run=%s -->\n' "$B1" >c.md
expect_exit 1 "$EVIDENT" audit --no-untraced c.md
expect_contains "$TEST_TMP/out" "c.md:1: contradicted: slower slow vs base: "
expect_contains "$TEST_TMP/out" "verdict inconclusive (1 repeat a side: the variance between processes is unknown; runs "

# the default on the host: 3 repeats, interleaved, and a verdict
expect_exit 0 "$EVIDENT" run tiny.yaml
expect_not_contains "$TEST_TMP/err" "warning: 1 repeat"
expect_contains "$TEST_TMP/out" "3 repeats per variant, interleaved"
expect_match "$TEST_TMP/out" '^slow +ok .* slower$'
expect_not_contains "$TEST_TMP/out" "of one repeat a side"
