# t0203 - the drift rule's history reads interrupted batches (red team
# 91's stop: the proposer's stops put the reference's fast runs exactly in
# the batches it interrupted, which fastest_of skipped, so a reference
# whose only recorded fast runs lay there read as never fast).  padwall.c
# at NOP 1 (the reference) is fast before WALL (now + 25 s) and ~11x slower
# after; any other NOP is the fast path.  Before WALL one eval session
# (candidate NOP 3) is interrupted once a run of the reference is
# recorded; after WALL the candidate NOP 2 (the reference's fast path,
# no faster than the reference ever ran) reads faster in its batch, and
# must be held: the reference drifted against its interrupted fast run.
# The audit's `faster` claim on it likewise.  Before the fix: promoted,
# reference_drift null, the claim supported.
. "$REPO/tests/cli/lib.sh"
runs_alone "interrupts an eval session before a wall-clock time"
mkrepo
wall=$(($(date +%s) + 25))
cat > experiments/dr.yaml <<Y
name: dr
problem: rowsum
backend: host
kernel: tests/fixtures/adversary/host/redteam65/padwall.c
shape: {R: 256, C: 1024}
baseline: ref
variants:
  ref: {NOP: 1, WALL: $wall, PRE: 0, POST: 1000}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 20, cache: hot}
limits: {timeout_s: 60}
repeats: 5
Y
S="$EVIDENT_STORE"
ref_runs() { grep -l '"variant": "ref"' "$S"/runs/*.json 2>/dev/null | grep -vc -- '-batch.json$'; }
mkfifo "$TEST_TMP/in" || fail "mkfifo"
"$EVIDENT" eval --no-progress experiments/dr.yaml < "$TEST_TMP/in" > ans1 2> err1 &
pid=$!
exec 3> "$TEST_TMP/in"
echo '{"params": {"NOP": 3}}' >&3
for i in $(seq 400); do
	[ "$(ref_runs)" -ge 1 ] && break
	sleep 0.05
done
[ "$(ref_runs)" -ge 1 ] || { kill $pid; fail "no run of the reference in 20 s"; }
kill -INT $pid
wait $pid
rc=$?
exec 3>&-
expect_eq "$rc" 130 "eval interrupted"
[ "$(date +%s)" -lt $((wall - 1)) ] || skip "the interrupted session ended past WALL on this machine"
jget ans1 'd["interrupted"]' | grep -qx True || { cat ans1; fail "session 1 not interrupted"; }
b1=$(jget ans1 'd["batch"]')
while [ "$(date +%s)" -le "$wall" ]; do sleep 1; done
echo '{"params": {"NOP": 2}}' | "$EVIDENT" eval --no-progress experiments/dr.yaml > ans2 2> err2
python3 - ans2 "$b1" <<'P' || fail "the candidate after WALL"
import json, sys
a = json.loads(open(sys.argv[1]).readline())
assert a["outcome"] == "ok" and a["verdict"] == "faster", (a["verdict"], a["decision"])
rd = a["reference_drift"]
assert rd and rd["fastest_batch"] == sys.argv[2] and rd["held"] is True, (rd, a["decision"])
assert a["promoted"] is False, a["decision"]
P
cand=$(jget ans2 'd["candidate"]')
printf '<!-- claim: faster experiment=dr a=%s b=ref -->\n' "$cand" > c.md
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
expect_match c.out "c.md:1: contradicted: faster $cand vs ref: .*ran [0-9.]+x slower here than the fastest its code was recorded at in the store \(batch $b1"
true
