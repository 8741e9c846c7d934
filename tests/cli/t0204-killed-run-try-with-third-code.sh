# t0204 - a killed `evident run` try counts, whatever else it ran (red
# team 94: the audit skipped an orphan batch, runs and no batch record,
# holding any run of a code neither side of the claim, so a proposer that
# SIGKILLed each session of a spec with a free third variant once that
# variant's run had landed got "again faster than ref" supported 3 of 3,
# 0 of 92 killed tries counted; eval read no killed `evident run` try at
# all).  t0199's padwall: NOP 1 the reference (31x the work), NOP 2 the
# fast path, `third` the reference's kernel at another POST (another
# code).  Sessions of a spec holding all three are SIGKILLed once a run of
# `third` and one more run have landed, until two tries hold runs of
# exactly one of ref and fast (a try holding both, fast going faster, is
# left out: code_orphan_weight), then one session runs to the end.  Each
# killed session leaves its begun marker (kind run_batch) naming the
# three codes; the finished one's is removed.  The audit of "faster fast
# vs ref" on the finished batch reads 1 of 1+E (E such one-sided tries),
# contradicted; eval of the fast path's code under a new name weighs them
# too, not promoted.  Before the fix: supported 1 of 1, promoted 2 of 2.
. "$REPO/tests/cli/lib.sh"
runs_alone "kills evident run sessions once a run record of their batch lands"
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
  fast: {NOP: 2, WALL: 1, PRE: 0, POST: 3000}
  third: {NOP: 1, WALL: 1, PRE: 0, POST: 1000}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 20, cache: hot}
limits: {timeout_s: 60}
repeats: 4
Y
S="$EVIDENT_STORE"
# the variants whose runs landed under batch_id $1, sorted, one a line
landed() { grep -l "\"batch_id\": \"$1\"" "$S"/runs/*.json 2>/dev/null | xargs -r grep -ho '^ "variant": "[a-z]*"' | sed 's/.*: "//; s/"//' | sort; }
new_runs() { comm -13 "$TEST_TMP/before" <(ls "$S/runs" 2>/dev/null | grep -v -- '-batch.json$' | sort); }
killed=0 onesided=0 sided=0
for s in $(seq 30); do
	ls "$S/runs" 2>/dev/null | grep -v -- '-batch.json$' | sort > "$TEST_TMP/before"
	setsid "$EVIDENT" run --no-progress experiments/st.yaml > "$TEST_TMP/out.$s" 2> "$TEST_TMP/err.$s" &
	pid=$!
	ok=
	for i in $(seq 1200); do
		n=$(new_runs | wc -l)
		if [ "$n" -ge 2 ] && [ ! -e "$S/HEAD.lock" ] &&
			(cd "$S/runs" && new_runs | xargs -r grep -l '^ "variant": "third"' | grep -q .); then
			ok=1
			break
		fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.02
	done
	[ -n "$ok" ] || { kill -KILL -- -$pid 2>/dev/null; wait $pid; cat "$TEST_TMP/err.$s"; fail "session $s: no run of third and one more"; }
	kill -KILL -- -$pid
	wait $pid
	expect_eq "$?" 137 "run killed ($s)"
	killed=$((killed + 1))
	b=$(cd "$S/runs" && new_runs | head -1 | xargs grep -ho '^ "batch_id": "[^"]*"' | sed 's/.*: "//; s/"//')
	[ -n "$b" ] && [ ! -e "$S/runs/$b.json" ] || fail "session $s: batch $b"
	v=$(landed "$b" | uniq | tr '\n' ' ')
	case "$v" in
	*fast*ref*) sided=$((sided + 1)) ;;
	*fast*|*ref*) onesided=$((onesided + 1)) sided=$((sided + 1)) ;;
	esac
	echo "session $s: $b: $v"
	# its marker names the three codes
	python3 - "$S/pending/$b.json" <<'P' || fail "marker of $b"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["kind"] == "run_batch" and m["experiment"] == "st", m
vs = m["code"]["variants"]
assert sorted(v["name"] for v in vs) == ["fast", "ref", "third"], m
for v in vs:
    assert v.get("binary_sha256") and v.get("load_sha256") and v.get("libs"), v
assert len({v["binary_sha256"] for v in vs}) == 3, m
P
	[ "$onesided" -ge 2 ] && break
done
# (a slow runner, the sanitized one under load, may land both fast and
# ref before every kill: the one-sided tries this test weighs never come)
[ "$onesided" -ge 2 ] || skip "only $onesided one-sided tries in $killed sessions: the kills landed after both fast and ref (a slow runner)"
# the try left alone: recorded, faster, its marker gone
"$EVIDENT" run --no-progress experiments/st.yaml > full.out 2> full.err || { cat full.err; fail "the full run"; }
[ "$(ls "$S"/pending/*-batch.json | wc -l)" = "$killed" ] || fail "markers: $(ls "$S/pending")"
printf '<!-- claim: faster experiment=st a=fast b=ref -->\n' > c.md
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
# (the finished batch's own verdict is timing: where its process luck
# read inconclusive there is no verdict for the killed tries to weigh)
! grep -q "verdict inconclusive" c.out || skip "the finished run's own verdict was inconclusive: $(head -c 200 c.out)"
# (every killed try with a run of fast or ref is an unfinished batch of
# the same code: a one-sided one counts against the verdict, a two-sided
# one too unless its runs go the claim's way, when it is left out and
# said so: a kill can land after both, which plan_order's shuffled pairs
# make likelier)
expect_match c.out "c.md:1: contradicted: faster fast vs ref: .*verdict faster .*only 1 of [0-9]* batches of the same code .* \([0-9]* were interrupted, which gives no verdict\)"
python3 - c.out "$onesided" "$sided" <<'P' || fail "the audit's count of killed tries"
import re, sys
t = open(sys.argv[1]).read()
one, sided = int(sys.argv[2]), int(sys.argv[3])
m = re.search(r"only 1 of (\d+) batches of the same code .* \((\d+) were interrupted", t)
n, y = int(m.group(1)), int(m.group(2))
z = re.search(r"(\d+) stopped tr(?:y|ies) .* going its way left out", t)
z = int(z.group(1)) if z else 0
assert n == 1 + y and y + z == sided and y >= one, (n, y, z, one, sided, t)
P
# eval of the fast path's code under a new name: its batch, the finished
# run batch, and the killed tries with a run of fast or ref
echo '{"name": "again", "params": {"NOP": 2}}' | "$EVIDENT" eval --no-progress experiments/st.yaml > ans 2> err
# (eval's own verdict is timing too: inconclusive, it weighs no earlier try)
python3 -c 'import json, sys; sys.exit(json.loads(open("ans").readline()).get("verdict") != "faster")' ||
	skip "eval's own verdict was not faster: $(head -c 200 ans)"
python3 - ans "$onesided" "$sided" <<'P' || { cat err; fail "eval"; }
import json, sys
a = json.loads(open(sys.argv[1]).readline())
# the killed tries eval weighs: every one-sided one, a two-sided one
# where it does not go the candidate's way
e = a["decision"].count("runs, no batch record")
assert int(sys.argv[2]) <= e <= int(sys.argv[3]), (e, sys.argv[2:], a["decision"])
assert a["outcome"] == "ok" and a["verdict"] == "faster", a
assert a["batches_of_code"] == {"weighed": 2 + e, "faster": 2, "earlier": 1 + e, "left_out_other_job": 0}, (a["batches_of_code"], a["decision"])
assert a["promoted"] is False, a["decision"]
assert a["decision"].count("runs, no batch record") == e, a["decision"]
P
true
