# t0216 - red team 122 (tests/fixtures/adversary/host/redteam122/README.md):
# a finished batch of fewer than 3 repeats a side (rule 0b: no verdict)
# 1. is not the newest evidence of an unpinned claim while an older
#    batch of the current code has enough repeats (a true faster claim
#    read contradicted, 10 of 10, after one `--repeats 1` run);
# 2. is not what `paper`'s run=latest renders either: paper and the audit
#    read one batch, query_latest_result (an interrupted batch's 1.33x
#    was rendered beside a claim supported by the finished one's 1.402x);
# 3. casts no vote in a value claim's majority (a value the only 3-repeat
#    batch excludes was supported after 4 `--repeats 1` runs; a true one,
#    pinned, contradicted by 20 of them);
# 4. is no configuration in the Bonferroni count (40 `eval --repeats 1`
#    tries contradicted an honest faster claim, p 0.0014 -> 0.056), while
#    a try of 3 repeats a side still is one.
# sleepy.c's time is a sleep of SLEEP_US (2 ms against 3 ms).
. "$REPO/tests/cli/lib.sh"
runs_alone_light "verdicts timed on sleeps of 2 and 3 ms"
mkrepo
spec() { # spec NAME FAST_US SLOW_US
	cat <<Y
name: $1
problem: attention_fwd
backend: host
shape: {B: 1, H: 2, S: 64, D: 32}
dtype: fp32
baseline: slow
variants:
  slow: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: $3}
  fast: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: $2}
correctness: {seeds: 3}
timing: {warmup_ms: 5, samples: 30, cache: hot}
limits: {timeout_s: 60}
repeats: 3
Y
}
spec sl 2000 3000 > experiments/sl.yaml
spec sl2 2100 3100 > experiments/sl2.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/sl.yaml
grep -qE "^fast .* faster" "$TEST_TMP/out" ||
	skip "the 3-repeat batch read $(grep -oE '^fast .*' "$TEST_TMP/out" | awk '{print $NF}') at load $(cut -d' ' -f1 /proc/loadavg)"
first=$(ls "$EVIDENT_STORE"/runs/*-batch.json | head -1)
first=$(basename "$first" .json)
# the slow side's recorded median, for a value claim that states it
printf '<!-- claim: value experiment=sl variant=slow stat=median_us value=1us run=%s -->\n' "$first" > probe.md
"$EVIDENT" audit --no-untraced probe.md > probe.out 2>&1
med=$(grep -oE 'recorded [0-9.]+' probe.out | head -1 | awk '{print $2}')
[ -n "$med" ] || { cat probe.out; fail "no recorded median"; }
cat > c.md <<M
<!-- claim: faster experiment=sl a=fast b=slow -->
<!-- claim: value experiment=sl variant=slow stat=median_us value=${med}us run=$first -->
M
cat > p.md <<'M'
<!-- evident:table experiment=sl run=latest -->
<!-- /evident:table -->
M
expect_exit 0 "$EVIDENT" audit --no-untraced c.md
# one finished batch of 1 repeat a side, newer
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 experiments/sl.yaml
# 1. the claim still reads the 3-repeat batch
expect_exit 0 "$EVIDENT" audit --no-untraced c.md
expect_match "$TEST_TMP/out" "c.md:1: supported: faster fast vs slow: .*verdict faster.*; newer batch .*-batch passed over \(fewer than 3 repeats a side"
# 3. the one-repeat batch casts no vote on the value
expect_contains "$TEST_TMP/out" "1 batch(es) of the code of fewer than 3 repeats left out"
expect_not_contains "$TEST_TMP/out" "batches of the same code"
# 2. paper's run=latest renders the batch the claim reads: 3 repeats ok,
# not the newer batch's 1
expect_exit 0 "$EVIDENT" paper p.md
grep -q "| 3/3 |" p.md || { cat p.md; fail "paper's run=latest did not render the 3-repeat batch"; }
! grep -q "| 1/1 |" p.md || { cat p.md; fail "paper's run=latest rendered the one-repeat batch"; }
# 4. a one-repeat try of the kernel file at other values is no configuration
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 experiments/sl2.yaml
"$EVIDENT" audit --no-untraced c.md > c4.out 2>&1
expect_match c4.out "c.md:1: supported: faster fast vs slow: "
expect_not_contains c4.out "configurations"
# and one of 3 repeats a side is (a hunt pays for what it tried)
"$EVIDENT" run --no-progress experiments/sl2.yaml > /dev/null 2>&1
"$EVIDENT" audit --no-untraced c.md > c5.out 2>&1
expect_match c5.out "c.md:1: [a-z]+: faster fast vs slow: .*(adjusted over the 2 configurations|tried in 2 configurations)"
# 5. the spec's definition of a claim's variant is part of what it ran:
# `fast` redefined in the spec (the kernel file unchanged) makes a claim
# on it stale, the value claim on `slow` stays supported (red team 122's
# probe 4: supported, not stale, where a rerun read fast slower)
sed -i 's/SLEEP_US: 2000/SLEEP_US: 3900/' experiments/sl.yaml
"$EVIDENT" audit --no-untraced c.md > c6.out 2>&1
expect_match c6.out "c.md:1: stale: faster fast vs slow: the spec 'experiments/sl.yaml' now defines variant 'fast' otherwise than run"
expect_match c6.out "c.md:2: supported: value sl/slow "
