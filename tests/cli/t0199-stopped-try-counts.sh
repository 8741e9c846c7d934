# t0199 - every try of a code counts, however it ended (red team 91's
# stop: a proposer that watched the run records land and stopped every
# eval batch going the wrong way got the reference's own work promoted at
# 12-20x, batches_of_code 1 of 1).  Made deterministic: padwall.c at NOP 1
# (the reference) sums its rows 31 times after WALL (1: always); any other
# NOP is the fast path, truly faster (~20x at this shape, in L2).  The same candidate is sent
# three times: the first session gets SIGINT once a run record of its
# batch lands (an interrupted batch), the second SIGKILL (no batch record
# at all: its begun marker stays), the third runs to the end and reads
# faster.  Two of its three tries were not faster: not promoted,
# batches_of_code {weighed 3, faster 1}.  Before the fix: promoted, 1 of 1.
. "$REPO/tests/cli/lib.sh"
runs_alone "stops eval sessions once a run record of their batch lands"
mkrepo
cat > experiments/st.yaml <<'Y'
name: st
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
repeats: 5
Y
S="$EVIDENT_STORE"
line='{"params": {"NOP": 2}}'
nruns() { ls "$S/runs" 2>/dev/null | grep -vc -- '-batch.json$'; }
# stop_session SIGNAL: one eval session of the candidate, stopped with
# SIGNAL once one more run record than before has landed
stop_session() {
	local before; before=$(nruns)
	mkfifo "$TEST_TMP/in.$1" || fail "mkfifo"
	"$EVIDENT" eval --no-progress experiments/st.yaml < "$TEST_TMP/in.$1" > "$TEST_TMP/ans.$1" 2> "$TEST_TMP/err.$1" &
	pid=$!
	exec 3> "$TEST_TMP/in.$1"
	echo "$line" >&3
	for i in $(seq 600); do
		[ "$(nruns)" -gt "$before" ] && break
		sleep 0.05
	done
	[ "$(nruns)" -gt "$before" ] || { kill $pid; fail "no run recorded in 30 s ($1)"; }
	kill -"$1" $pid
	wait $pid
	rc=$?
	exec 3>&-
}
stop_session INT
expect_eq "$rc" 130 "eval interrupted"
jget "$TEST_TMP/ans.INT" 'd["interrupted"]' | grep -qx True || { cat "$TEST_TMP/ans.INT"; fail "not interrupted"; }
stop_session KILL
expect_eq "$rc" 137 "eval killed"
# the killed session's try: its begun marker, the batch never recorded
m=$(ls "$S"/pending/*-batch.json 2>/dev/null)
[ -n "$m" ] && [ "$(echo "$m" | wc -l)" = 1 ] || fail "no one begun marker after the kill: $(ls "$S/pending")"
[ ! -e "$S/runs/$(basename "$m")" ] || fail "the killed session's batch was recorded"
# ls lists it among the pending, aborted
"$EVIDENT" ls > ls.out 2>&1 || { cat ls.out; fail "ls"; }
expect_match ls.out "$(basename "$m" .json).*aborted"
# a marker written on another host (a shared store): neither running nor
# aborted to this one (it read as aborted, review2)
python3 - "$m" "$S/pending/x-elsewhere-batch.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1])); d["host"] = "another-node-of-the-cluster"; d["run_id"] = "x-elsewhere-batch"
json.dump(d, open(sys.argv[2], "w"))
P
"$EVIDENT" ls > ls.out 2>&1 || { cat ls.out; fail "ls"; }
expect_match ls.out "x-elsewhere-batch.*elsewhere"
rm "$S/pending/x-elsewhere-batch.json"
# the store still verifies (pending/ is no part of the record)
expect_exit 0 "$EVIDENT" verify
# the third try, left alone
echo "$line" | "$EVIDENT" eval --no-progress experiments/st.yaml > ans3 2> err3
python3 - ans3 "$(basename "$m" .json)" <<'P' || fail "the third try"
import json, sys
a = json.loads(open(sys.argv[1]).readline())
assert a["outcome"] == "ok" and a["interrupted"] is False, a
# faster, ~20x; at a load of 30 and more (two red teams beside make
# test) it once read inconclusive, 2.000x [0.550, 8.953]: the stopped
# tries count either way
assert a["verdict"] in ("faster", "inconclusive"), (a["verdict"], a["speedup"], a["decision"])
nf = 1 if a["verdict"] == "faster" else 0
assert a["batches_of_code"] == {"weighed": 3, "faster": nf, "earlier": 2, "left_out_other_job": 0}, (a["batches_of_code"], a["decision"])
assert a["promoted"] is False, a["decision"]
d = a["decision"]
# (the decision names the other tries where this one was faster)
assert not nf or ("in only 1 of 3 batches of this code" in d and "interrupted (" in d and "unfinished (" + sys.argv[2] in d), d
open("verdict3", "w").write(a["verdict"])
P
# its own marker is gone once its batch is recorded; the killed one's stays
[ "$(ls "$S"/pending/*-batch.json | wc -l)" = 1 ] || fail "markers: $(ls "$S/pending")"
# the audit: the interrupted batch is a rerun that gives no verdict, and
# so is the killed one, by its runs with no batch record (red team 93:
# audit_verdict.c orphan_tries)
cand=$(jget ans3 'd["candidate"]')
printf '<!-- claim: faster experiment=st a=%s b=ref -->\n' "$cand" > c.md
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
if [ "$(cat verdict3)" = faster ]; then
	expect_match c.out "c.md:1: contradicted: faster $cand vs ref: .*only 1 of 3 batches of the same code .* \(2 were interrupted, which gives no verdict\).*unfinished \($(basename "$m" .json): runs, no batch record\)"
else
	expect_match c.out "c.md:1: (contradicted|unsupported): faster $cand vs ref"
fi
true
