# t0184 - an eval candidate cannot stand for a variant of the spec, and an
# eval session's batch is not the experiment's latest result (red team 74).
# Before: a candidate named `pub` was recorded under the spec's experiment
# as `pub`, and the paper's `run=latest` table read "pub ... faster" from
# its batch; a candidate named with another proposer's content name
# (cand- and 12 hex digits) flipped that proposer's validated claim; the
# newest eval batch set a search's first cost estimate.  Now: the spec's
# variant names and content names not the candidate's own are refused
# (the answer's error says why, at "name"), an eval batch records
# `session: eval`, and `latest` reads the spec's own batch while one has
# the variants asked for.  A name the experiment's store holds for other
# code (two proposers' `fast`) is refused too; the same code again keeps it.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed -e 's/^repeats: 3/repeats: 1/' -e 's/samples: 40/samples: 10/' tests/fixtures/specs/host-redteam74-namesake.yaml > experiments/ns.yaml
grep -q '^repeats: 1' experiments/ns.yaml || fail "sed namesake.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ns.yaml
k=tests/fixtures/adversary/host/redteam59/mild_drift.c
{
	printf '{"name": "pub", "kernel": "%s", "params": {"NOP": 2, "WALL": 1, "MILD": 100}}\n' $k
	printf '{"name": "cand-0123456789ab", "kernel": "%s", "params": {"NOP": 2, "WALL": 1, "MILD": 100}}\n' $k
	printf '{"kernel": "%s", "params": {"NOP": 2, "WALL": 1, "MILD": 100}}\n' $k
} > in.jsonl
"$EVIDENT" eval --reference ref --repeats 1 --no-progress experiments/ns.yaml < in.jsonl > "$TEST_TMP/answers" 2> "$TEST_TMP/e"
python3 - "$TEST_TMP/answers" artifacts/runs/*-batch.json <<'PY' || { cat "$TEST_TMP/answers" "$TEST_TMP/e"; fail "eval's answers or batches are not as expected"; }
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
assert len(a) == 3, len(a)
assert a[0].get("at") == "name" and "is a variant of the spec" in a[0]["error"], a[0]
assert a[1].get("at") == "name" and "has the form of a content name" in a[1]["error"], a[1]
assert a[2].get("candidate", "").startswith("cand-") and a[2]["outcome"] == "ok", a[2]
bs = [json.load(open(p)) for p in sys.argv[2:]]
ev = [b for b in bs if b.get("session") == "eval"]
assert len(ev) == 1 and len(bs) == 2, [(b["run_id"], b.get("session")) for b in bs]
PY
# a name the store holds for other code is refused; the same code under it again is not
{
	printf '{"name": "fast", "kernel": "%s", "params": {"NOP": 2, "WALL": 1, "MILD": 100}}\n' $k
	printf '{"name": "fast", "kernel": "%s", "params": {"NOP": 3, "WALL": 1, "MILD": 100}}\n' $k
	printf '{"name": "fast", "kernel": "%s", "params": {"NOP": 2, "WALL": 1, "MILD": 100}}\n' $k
} > in2.jsonl
"$EVIDENT" eval --reference ref --repeats 1 --no-progress experiments/ns.yaml < in2.jsonl > "$TEST_TMP/answers2" 2> "$TEST_TMP/e2"
python3 - "$TEST_TMP/answers2" <<'PY' || { cat "$TEST_TMP/answers2" "$TEST_TMP/e2"; fail "a name of other code was not refused"; }
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
assert len(a) == 3, len(a)
assert a[0].get("candidate") == "fast" and a[0]["outcome"] == "ok", a[0]
assert a[1].get("at") == "name" and "is taken in this experiment's store by other code" in a[1]["error"], a[1]
assert a[2].get("candidate") == "fast" and a[2]["outcome"] == "ok", a[2]
PY
printf '<!-- evident:table experiment=host-redteam74-namesake run=latest -->\n<!-- /evident:table -->\n' > t.md
expect_exit 0 "$EVIDENT" paper t.md
grep -q '^| pub ' t.md || { cat t.md; fail "the latest table is not the spec's batch"; }
grep -q 'cand-' t.md && { cat t.md; fail "the latest table is the eval session's batch"; }
# a claim on the candidate without run= reads its eval batch (red team 78:
# "unsupported: (null)" before)
cand=$(python3 -S -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[2])["candidate"])' "$TEST_TMP/answers")
printf '<!-- claim: faster experiment=host-redteam74-namesake a=%s b=ref -->\n' "$cand" > c.md
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
grep -q "(null)" c.out && { cat c.out; fail "the claim on the eval candidate has no reason"; }
grep -qE "c.md:1: (supported|contradicted|unsupported): faster $cand vs ref: " c.out || { cat c.out; fail "no finding on the eval candidate"; }
true
