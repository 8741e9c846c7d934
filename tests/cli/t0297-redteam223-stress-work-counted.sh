# t0297 - red team 223 (tests/fixtures/adversary/host/redteam223/
# README.md): rule 4b/4c's mean work read the timing distributions'
# samples only, and a kernel that told stress inputs apart by one element
# moved work onto them (3 passes on timing inputs, 7 on stress ones, the
# baseline's 4 on each: the same mean work over the inputs every variant
# draws), under the stress gate's 3x of its own median: `faster`
# 1.28x-1.37x in 10 of 11 batches, eval promoted 2 of 2.  Now a run's
# mean work counts every timed sample, the stress distributions' too
# (job.c job_samples): stress37 reads work near 1 and is not faster.
# Red team 228 then funded red team 215's spread (3,3,3,7 passes on
# timing inputs, base4's exact mean) with cheap stress launches: the
# work at its least is now the lesser of the timing samples' mean and
# every sample's, at its most the greater; tim3 is not faster either.
. "$REPO/tests/cli/lib.sh"
# the whole machine: in the plain pass (since make san-cover of
# 2026-12-06) its red team 230 check, hon2x and hon2t at 1.15 or more,
# read 0.91-1.14 in two CIs beside the other alone test, 1.2+ alone
runs_alone_machine "timed verdicts of kernels one pass apart, whose work ratios the other alone test's CPU moves"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
# the spec at 60 samples a run (120: the ratios need no more, the suite's time does)
sed 's/samples: 120/samples: 60/' tests/fixtures/specs/host-redteam223-stress.yaml > stress.yaml
expect_exit 0 "$EVIDENT" run --no-progress --repeats 3 --only stress37 --only hon3 stress.yaml
sed 's/samples: 120/samples: 60/' tests/fixtures/specs/host-redteam228-fund.yaml > fund.yaml
mkdir st
EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress --repeats 3 --only tim3 fund.yaml
python3 -S - st/runs/*-batch.json > fund <<'P' || fail "reading the fund batch: $(cat fund)"
import json, sys
b = json.load(open(sys.argv[1]))
for v in b["variants"]:
    c = v.get("comparison")
    if c:
        w = c["work_means"]
        print(v["variant"], c.get("verdict"), w.get("ratio_fast", w["ratio"]))
P
cat fund
awk '$1 == "tim3" && ($2 == "faster" || $3 > 1.1) { bad = 1 } END { exit bad }' fund || fail "tim3 (the spread funded by cheap stress launches) read faster or its work over 1.1: $(cat fund)"
B=$(ls artifacts/runs/*-batch.json | head -1)
python3 -S - "$B" > ratios <<'P' || fail "reading the batch: $(cat ratios)"
import json, sys
b = json.load(open(sys.argv[1]))
for v in b["variants"]:
    c = v.get("comparison")
    if c:
        w = c["work_means"]
        # the ratio a faster verdict reads (ratio_fast, absent where it
        # is the ratio), and the ratio at both sides' least
        print(v["variant"], c.get("verdict"), w.get("ratio_fast", w["ratio"]), w["ratio"])
P
cat ratios
awk '$1 == "stress37" && $2 == "faster" { bad = 1 } END { exit bad }' ratios || fail "stress37 read faster: $(cat ratios)"
# (1.2 since rowsum's five distributions, red team 286: `padded` and
# `spikes` are inputs stress37 takes the 3-pass path on, so its mean work
# over every sample is now a little under base4's, not equal to it: 1.108
# in the CI of 2026-12-07; its verdict, above, is the property)
awk '$1 == "stress37" && $3 > 1.2 { bad = 1 } END { exit bad }' ratios || fail "stress37's work ratio over all its samples is over 1.2: $(cat ratios)"
# the honest kernel's work shows its 4/3 (its verdict is the machine's)
awk '$1 == "hon3" && $4 < 1.15 { bad = 1 } END { exit bad }' ratios || fail "hon3's work ratio is under 1.15: $(cat ratios)"
# red team 230: a baseline whose stress inputs cost it more (3 passes on
# timing inputs, 7.5 on stress ones) was read at its least from its
# timing samples against a candidate at its most from every sample, so
# hon2x (2 and 5: 1.5x cheaper on every input) and hon2t (2 and 7.5)
# read inconclusive 7 of 7 (ratio_fast 0.75-1.13).  Now rule 4b pairs a
# set with the same set (gather.c compare_rows, run_record.work_sets)
sed 's/samples: 120/samples: 60/' tests/fixtures/specs/host-redteam230-mix.yaml > mix.yaml
mkdir sm
EVIDENT_STORE=$PWD/sm expect_exit 0 "$EVIDENT" run --no-progress --repeats 3 --only hon2x --only hon2t mix.yaml
python3 -S - sm/runs/*-batch.json > mix <<'P' || fail "reading the mix batch: $(cat mix)"
import json, sys
b = json.load(open(sys.argv[1]))
for v in b["variants"]:
    c = v.get("comparison")
    if c:
        w = c["work_means"]
        print(v["variant"], c.get("verdict"), w.get("ratio_fast", w["ratio"]))
P
cat mix
# (the sanitized runner's own cost in every sample dilutes the ratios
# toward 1: CI of 2026-12-06 00:37 read hon2x 1.17, hon2t 1.05, hon3
# 1.09 there; the plain pass holds the line)
case "$EVIDENT" in *build-san/*) exit 0 ;; esac
# the better of the two at 1.15 or more, neither under 1.0 (before red
# team 230's fix both read 0.75-1.13, 7 of 7; after, alone on a quiet
# machine, hon2t read 1.13 beside hon2x's 1.43 in the CI of a0b822efc,
# 2026-12-07 03:35: each alone is near the noise of its ratio)
awk '$1 ~ /^hon2/ { n++; if ($3 > best) best = $3; if ($3 < 1.0) low = 1 } END { exit !(n == 2 && best >= 1.15 && !low) }' mix ||
	fail "the honest kernels 1.5x cheaper on the timing inputs read work ratios under 1.15 (or one under 1.0): $(cat mix)"
