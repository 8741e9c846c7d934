# A kernel fast on most launches and far slower on a minority is not
# "faster" by its median alone (red team 144, tests/fixtures/adversary/
# host/redteam144/: tail.c, a rowsum 2.5x faster than naive whose every
# third launch sums 300 times read faster 1.9x-2.3x while its mean launch
# cost 11-13x naive's, and eval promoted it): the means of every launch
# now weigh in the verdict (stats.h rule 4, STATS_REASON_MEANS) and the
# record keeps them; and a kernel slow on every stress input (stress
# distributions are checked, never timed) gets a note saying how much
# slower, as one faster there did (gather.c DIST_NOTE_SLOW_RATIO), and
# its batch row says it as a number (stress_slow) for eval and a search.
. "$REPO/tests/cli/lib.sh"
runs_alone "the period kernel against naive is a ratio of two medians, which load moves"
mkrepo
cat > "$TEST_TMP/s.yaml" <<'Y'
name: t0257
question: Is a kernel slow on every third launch, or on every stress input, faster?
problem: rowsum
backend: host
shape: {R: 1024, C: 2048}
baseline: naive
variants:
  naive:  {kernel: kernels/rowsum/naive.c}
  period: {kernel: tests/fixtures/adversary/host/redteam144/tail.c, PERIOD: 3, SLOWX: 300}
  stress: {kernel: tests/fixtures/adversary/host/redteam144/tail.c, STRESS: 1, SLOWX: 100}
correctness: {seeds: 2, seed: 1}
timing: {warmup_ms: 0, samples: 60}
limits: {timeout_s: 120}
repeats: 3
Y
expect_exit 0 "$EVIDENT" run --no-progress "$TEST_TMP/s.yaml"
grep -qE "^period +ok .* faster *$" "$TEST_TMP/out" && fail "period read faster by its median"
expect_match "$TEST_TMP/out" "stress: [a-z_]+ [0-9.]+x of [a-z_]+'s median: speed depends on the input"
b=$(basename "$(ls "$EVIDENT_STORE"/runs/*-batch.json)" .json)
python3 - "$EVIDENT_STORE/runs/$b.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
rows = {r["variant"]: r for r in b["variants"]}
# the stress kernel's row says it for eval and a search (stress_slow,
# batch_row_stress_slow), naive's 0 (the period kernel's may not be: a
# third of its stress launches are slow too, and the stress cost weighs
# the runs' mean, gather_stress_cost)
assert rows["stress"]["stress_slow"] > 3, rows["stress"]
assert rows["naive"]["stress_slow"] == 0, rows["naive"]
# the stress cost's evidence is in every run's record (timing.by_dist
# n_over, 3x to 48x; the first reader dropped it and so ungated the rule):
# the stress kernel's stress samples over 12x of the timing median, its
# timing samples' fewer (100 passes over 8 MB: 21x on a VM whose last
# level cache holds the rows after the first pass, CI 2026-12-06; the
# 24x level read 0-7 of 44-54 there).  Since red team 286 tail.c's
# X[0] >= 1 meets two of rowsum's four stress distributions (cancel,
# positive; not padded, spikes): 16 of 43 stress samples over 12x
# (0.37), so the bar is a quarter, not a half
import glob, os
over = {}
for p in glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "*.json")):
    r = json.load(open(p))
    if r.get("kind") == "batch" or r.get("outcome") != "ok":
        continue
    for name, d in r["timing"]["by_dist"].items():
        assert len(d["n_over"]) == 5, d
        o = over.setdefault((r["variant"], d["timing"]), [0, 0])
        o[0] += d["n_over"][2]
        o[1] += d["n"]
s, t = over[("stress", False)], over[("stress", True)]
assert s[0] / s[1] > 0.25 and t[0] / t[1] < 0.2, over
c = rows["period"].get("comparison")
print(c["verdict"], c["speedup"]["ratio"], c.get("means"))
assert c["verdict"] != "faster", c
assert c["means"]["ratio"] < 0.5, c["means"]
# the test's point needs the median to read faster (2.1x alone); under
# make test's load the slow launches' neighbours slow down too
if not c["speedup"]["ratio"] > 1.2:
    sys.exit(3)
# where the median alone would decide faster (its CI above the band),
# the means are why it does not (under make test's load the median's CI
# can reach below 1 by itself: then rule 6's reason)
if c["speedup"]["ci"][0] > 1.01 and c["cliffs_delta"]["ci"][0] > 0:
    assert "the medians and the means point in opposite directions" in c["verdict_reason"], c
PY
rc=$?
[ $rc = 3 ] && skip "the period kernel's median read no faster than naive here (load $(cut -d' ' -f1 /proc/loadavg)): the means' rule is not what decided"
[ $rc = 0 ] || fail "the period row's comparison"
exit 0
