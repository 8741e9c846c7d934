# t0296 - red team 224 (tests/fixtures/adversary/host/redteam224/
# README.md): eval confirmed only a candidate's first batch, and the
# store's earlier batches of the two codes voted for it whatever they
# measured then: a coin kernel fast in seed batches (at another nice
# value, or before a time) and slower on average after was promoted by
# their majority from one lucky batch (2 of 20 sessions; hunts 4 of 4),
# and a `faster` claim on that batch read supported.  Now every
# promotion is confirmed, and a candidate faster against the reference
# by CODE_DRIFT_MARGIN than in an earlier batch of the two codes is not
# promoted (eval.c candidate_drift), nor is a claim on such a batch
# supported (audit_verdict.c faster_side_moved).  timewin.c is that
# coin made deterministic: fast before T1 and from T2 on, slow between.
. "$REPO/tests/cli/lib.sh"
runs_alone_light "the kernel's speed follows the wall clock in windows of seconds (it sleeps most of its 60 s; its verdicts hold by 2x)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
D=tests/fixtures/adversary/host/redteam224
now=$(date +%s)
T1=$((now + 30)) T2=$((now + 55))
cat > experiments/tw.yaml <<Y
name: tw
problem: attention_fwd
backend: host
shape: {B: 1, H: 2, S: 64, D: 32}
dtype: fp32
baseline: ref
variants:
  ref: {kernel: $D/spin.c, expect: ok}
  tw: {kernel: $D/timewin.c, T1: $T1, T2: $T2, expect: ok}
correctness: {seeds: 1}
timing: {warmup_ms: 2, samples: 20, cache: hot}
limits: {timeout_s: 60}
repeats: 3
Y
cand='{"kernel": "'$D'/timewin.c", "params": {"T1": "'$T1'", "T2": "'$T2'"}}'
# two seed batches before T1: faster
for k in 1 2; do
	expect_exit 0 "$EVIDENT" run --no-progress experiments/tw.yaml
done
[ "$(date +%s)" -lt "$T1" ] || skip "the seed batches ran past T1 ($(( $(date +%s) - T1 )) s late): the machine is too slow for this test's clock"
while [ "$(date +%s)" -lt "$T1" ]; do sleep 1; done
# a try between T1 and T2: slower, not promoted
echo "$cand" | "$EVIDENT" eval --no-progress --reference ref experiments/tw.yaml > a1.json 2> e1.err
[ "$(date +%s)" -lt "$T2" ] || skip "the slow try ran past T2: the machine is too slow for this test's clock"
expect_eq "$(jget a1.json 'd["promoted"]')" False "the try between T1 and T2"
while [ "$(date +%s)" -lt "$T2" ]; do sleep 1; done
# from T2 on: faster again, in this batch and its confirmation
echo "$cand" | "$EVIDENT" eval --no-progress --reference ref experiments/tw.yaml > a2.json 2> e2.err
python3 -S - a2.json > said <<'P' || fail "reading the answer: $(cat said)"
import json, sys
a = json.load(open(sys.argv[1]))
cd = a.get("candidate_drift") or {}
print(a.get("verdict"), a.get("promoted"), cd.get("held"), (cd.get("ratio") or 0) >= 1.25)
print(a["decision"])
P
read -r verdict promoted held drifted < said
[ "$verdict" = faster ] || skip "the try from T2 on did not read faster here: $(sed -n 2p said)"
[ "$promoted" = False ] || fail "promoted on the earlier batches' majority: $(sed -n 2p said)"
# the candidate's own history reads the drift; it is what holds the
# promotion unless the majority already did (a seed batch inconclusive
# under load leaves 2 of 4)
[ "$drifted" = True ] || fail "the candidate's own history does not show the drift: $(cat said)"
[ "$held" != True ] || expect_contains said "the candidate's speed moved with its history"
# and a faster claim on that batch is not supported
B=$(jget a2.json 'd["batch"]') C=$(jget a2.json 'd["candidate"]')
printf 'Faster. <!-- claim: faster experiment=tw a=%s b=ref run=%s -->\n' "$C" "$B" > claim.md
"$EVIDENT" audit claim.md > audit.out 2>&1
# by the history, or by the reruns' majority where that already fails
grep -q "its speed moved with its history" audit.out || grep -Eq "claim.md:1: (contradicted|unsupported)" audit.out ||
	fail "the faster claim on the try's batch is not held: $(head -3 audit.out)"
grep -q "claim.md:1: supported" audit.out && fail "the faster claim on the try's batch is supported: $(head -3 audit.out)"
true
