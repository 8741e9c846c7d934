# A stress cost paid asleep stands (red team 150,
# tests/fixtures/adversary/host/redteam150/README.md): nap.c sums the rows
# once, then on every stress launch (rowsum's `cancel` and `positive`)
# sleeps 29 times what the sum took (MODE 0: nanosleep).  By the worker's
# CPU no sample of it was over 3x, the Fisher test read 0 against 0, the
# batch said "no stress cost held" and eval promoted it 3.8x.  A host
# sample is now over by its time less what its leader waited on a
# runqueue (host_clock_busy): the sleep counts, a preemption does not.
. "$REPO/tests/cli/lib.sh"
runs_alone "a sleep's length and the timing median are both wall times, which load moves"
mkrepo
cat > "$TEST_TMP/s.yaml" <<'Y'
name: t0260
question: Is a kernel that sleeps on every stress input held slow there?
problem: rowsum
backend: host
shape: {R: 1024, C: 2048}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c}
  nap:   {kernel: tests/fixtures/adversary/host/redteam150/nap.c, MODE: 0, SLOWX: 30}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 60}
limits: {timeout_s: 120}
repeats: 3
Y
# (60 samples a run: a stress sample is drawn 1 time in 4, over rowsum's
# four stress distributions, and the note needs 4 of cancel or positive:
# at 30 a batch drew fewer of both about 4 times in 100)
expect_exit 0 "$EVIDENT" run --no-progress "$TEST_TMP/s.yaml"
expect_match "$TEST_TMP/out" "nap: (cancel|positive) [0-9.]+x of uniform's median: speed depends on the input"
# (cancel and positive: since red team 286 rowsum has padded and spikes
# too, where nap.c, which tells stress by X[0] >= 1, does not sleep)
grep -qE "nap: (cancel|positive) .*no stress cost held" "$TEST_TMP/out" && fail "a stress cost paid asleep read as chance"
b=$(ls "$EVIDENT_STORE"/runs/*-batch.json)
python3 - "$b" <<'PY' || fail "the nap row's stress cost"
import glob, json, os, sys
b = json.load(open(sys.argv[1]))
rows = {r["variant"]: r for r in b["variants"]}
assert rows["nap"]["stress_slow"] > 3, rows["nap"]
assert rows["naive"]["stress_slow"] == 0, rows["naive"]
# the runs' records count its stress samples over (n_over), as asleep
over = [0, 0]
for p in glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "*.json")):
    r = json.load(open(p))
    if r.get("variant") != "nap" or r.get("outcome") != "ok":
        continue
    for d in r["timing"]["by_dist"].values():
        if not d["timing"]:
            over[0] += d["n_over"][2]
            over[1] += d["n"]
# two of the four stress distributions (cancel, positive) since red
# team 286: about half the stress samples, so the bar is a quarter
assert over[1] and over[0] / over[1] > 0.25, over
PY
