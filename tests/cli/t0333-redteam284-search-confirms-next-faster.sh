# t0333 - red team 284 row 1 (host/redteam284/README.md, DENIAL): a search
# confirmed only its generation's one pick.  A decoy kernel file in the
# search's `kernels:` list (decoy.c: 4x under the search's job, 0.50x in
# its author's two side batches run with OMP_NUM_THREADS=1) took the pick
# by the largest lower CI bound, its confirmation's pooled weigh held it
# ("faster in only 2 of 4"), and the honest 2x candidate of the same
# generation (g0c0, SLEEP_US 16000->8000) was never confirmed nor drawn
# again: "base kept" 3 of 3.  Now the next candidate the generation read
# faster is confirmed in its own batch (run/search.c confirm_generation,
# at most 3 a generation), and the record keeps the decoy's try
# (confirmation.earlier_tries).  One generation (the red team's spec with
# generations: 1).  The kernels sleep (decoy.c, sleepy.c), so the verdicts
# hold by 2x margins.  About 20 s.
. "$REPO/tests/cli/lib.sh"
runs_alone_light "the verdicts are ratios of medians (of sleeps, by 2x)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
S=tests/fixtures/specs
# the decoy's author's two side batches, decoy vs base under OMP_NUM_THREADS=1
for i in 1 2; do
	OMP_NUM_THREADS=1 "$EVIDENT" run --store st --no-progress $S/host-redteam284-side.yaml > side$i.out 2>&1 ||
		{ cat side$i.out; fail "side batch $i"; }
	expect_match side$i.out "^decoy +ok .* slower"
done
sed 's/^  generations: 2$/  generations: 1/' $S/host-redteam284-search.yaml > experiments/search.yaml
grep -q "^  generations: 1$" experiments/search.yaml || fail "experiments/search.yaml: generations not set"
"$EVIDENT" run --store st --no-progress experiments/search.yaml > search.out 2>&1 || { cat search.out; fail "the search"; }
cat search.out
python3 - st/runs/*-search.json > rec.out <<'P' || { cat rec.out; fail "the search record"; }
import json, sys
d = json.load(open(sys.argv[1]))
g = d["generations"][0]
c = {x["id"]: x for x in g["candidates"]}
print("g0c0 %s, g0c1 %s" % (c["g0c0"]["comparison"]["verdict"], c["g0c1"]["comparison"]["verdict"]))
k = g["confirmation"] or {}
print("best_out=%s promoted=%s best=%s" % (g["best_out"], g["promoted"], d["best"]["id"]))
print("confirmation: %s confirmed=%s" % (k.get("challenger"), k.get("confirmed")))
for t in k.get("earlier_tries") or []:
    print("earlier try: %s confirmed=%s why=%s" % (t["challenger"], t["confirmed"], t["why"]))
print("why:", g["why"])
P
cat rec.out
expect_contains rec.out "g0c0 faster, g0c1 faster"
expect_contains rec.out "best_out=g0c0 promoted=True best=g0c0"
expect_contains rec.out "confirmation: g0c0 confirmed=True"
expect_match rec.out "^earlier try: g0c1 confirmed=False why=g0c1 faster than base, but faster in only 2 of the store's 4 batches"
expect_match rec.out "^why: g0c0 promoted: faster than base, .*the next of 2 faster candidates by the largest lower CI bound \(confirmation 2 of at most 3\), as g0c1 before it was not confirmed .*; confirmed in fresh processes"
expect_match search.out "generation 0: g0c1 not confirmed; the next faster candidate of the generation is g0c0"
expect_match search.out "note: generation 0: g0c1, the generation's pick, was not confirmed"
# the tree names the decoy's failed confirmation beside g0c0's
"$EVIDENT" show --store st --lineage "$(basename st/runs/*-search.json .json)" > tree.out 2>&1 || { cat tree.out; fail "show --lineage"; }
expect_match tree.out "g0c1 kernel sleepy.c->decoy.c .*NOT confirmed in fresh processes \(ok, .*faster in only 2 of"
expect_match tree.out "g0c0 SLEEP_US 16000->8000 .*; confirmed in fresh processes"
exit 0
