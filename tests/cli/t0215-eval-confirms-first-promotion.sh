# t0215 - a candidate faster in the first batch of its code against the
# reference is promoted only after a second batch, in fresh processes,
# is faster too (red team 110: a kernel whose speed is a coin toss per
# process was promoted over a copy of itself in 2 of 60 fresh-store
# sessions at 3 repeats, each from one batch).  The answer is the second
# batch's, "confirms" naming the first, both weighed in batches_of_code.
# padwall's NOP 2 is the fast path of its NOP 1 (31x the work).
. "$REPO/tests/cli/lib.sh"
runs_alone_light "two eval batches of a 5x-faster path: a loaded machine can make one inconclusive"
mkrepo
cat > experiments/pw.yaml <<'Y'
name: pw
problem: rowsum
backend: host
kernel: tests/fixtures/adversary/host/redteam65/padwall.c
shape: {R: 64, C: 1024}
baseline: ref
variants:
  ref: {NOP: 1, WALL: 1, PRE: 0, POST: 3000}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 20, cache: hot}
limits: {timeout_s: 60}
Y
echo '{"name": "fast", "params": {"NOP": 2}}' | "$EVIDENT" eval --no-progress experiments/pw.yaml > ans 2> err ||
	{ cat err; fail "eval"; }
python3 - ans <<'P'

import json, sys
a = json.loads(open(sys.argv[1]).readline())
bc = a["batches_of_code"]
print(a["verdict"], a["promoted"], bc, a.get("confirms"), a["decision"][:160])
if "confirms" not in a:
    # the first batch was not faster: nothing to confirm, nothing promoted
    assert not a["promoted"] and bc["weighed"] == 1, a
    sys.exit(3)
assert a["confirms"].endswith("-batch") and a["confirms"] != a["batch"], a
assert bc["weighed"] == 2 and bc["earlier"] == 1, bc
if a["verdict"] == "faster" and not a["promoted"] and "moved with its history" in a["decision"]:
    # the candidate's own speed moved between its two batches (a loaded
    # machine: the sanitized pass): red team 224's history rule holds it,
    # rightly; the confirmation this test is about was not reached
    sys.exit(4)
assert a["promoted"] == (a["verdict"] == "faster"), (a["promoted"], a["verdict"], a["decision"])
P
rc=$?
[ $rc = 3 ] && skip "the fast path's first batch was not faster here (load $(cut -d' ' -f1 /proc/loadavg))"
[ $rc = 4 ] && skip "the candidate's own speed moved between its two batches here (load $(cut -d' ' -f1 /proc/loadavg)): the history rule held it"
[ $rc = 0 ] || { cat err; fail "the answer"; }
[ "$(ls artifacts/runs/*-batch.json | wc -l)" = 2 ] || fail "two batches: $(ls artifacts/runs/*-batch.json)"
true
