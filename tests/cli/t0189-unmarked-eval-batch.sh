# t0189 - an eval session's batch recorded before eval marked its
# batches (`session: eval`) is not the experiment's latest result (red
# team 76's "unmarked": red team 74's store, read by a paper, had the
# impostor's eval batch as its latest table).  Such a batch is made here
# from a marked one: the `session` line is taken out of its manifest and
# its digest recomputed (the store's rule: SHA-256 of the canonical text
# without the digest line), so the store verifies intact.  Now the batch
# is told from what it holds: a row whose name its runs' recorded spec
# does not have (the candidate's content name), or has for other code;
# `latest` reads the spec's own batch, and `evident verify` names it in a
# note.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed -e 's/^repeats: 3/repeats: 1/' -e 's/samples: 40/samples: 10/' tests/fixtures/specs/host-redteam74-namesake.yaml > experiments/ns.yaml
grep -q '^repeats: 1' experiments/ns.yaml || fail "sed namesake.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ns.yaml
k=tests/fixtures/adversary/host/redteam59/mild_drift.c
# a candidate with the code of no variant of the spec
printf '{"kernel": "%s", "params": {"NOP": 3, "WALL": 1, "MILD": 100}}\n' $k > in.jsonl
"$EVIDENT" eval --reference ref --repeats 1 --no-progress experiments/ns.yaml < in.jsonl > ans 2> err
grep -q '"outcome":"ok"' ans || { cat ans err; fail "the candidate was not judged"; }
ev=$(grep -l '"session": "eval"' "$EVIDENT_STORE"/runs/*-batch.json)
[ -n "$ev" ] && [ "$(echo "$ev" | wc -l)" = 1 ] || fail "no one eval batch: $ev"
# unmark it, as a batch recorded before 2026-11-30 21:25 was
python3 - "$ev" <<'PY' || fail "unmark"
import hashlib, os, sys
p = sys.argv[1]
lines = [l for l in open(p).read().split("\n") if l != ' "session": "eval",']
bare = "\n".join(l for l in lines if not l.startswith(' "digest": '))
dg = hashlib.sha256(bare.encode()).hexdigest()
text = "\n".join(' "digest": "%s",' % dg if l.startswith(' "digest": ') else l for l in lines)
os.chmod(p, 0o644)
open(p, "w").write(text)
os.chmod(p, 0o444)
PY
grep -q '"session"' "$ev" && fail "still marked"
rm -f "$EVIDENT_STORE/index" "$EVIDENT_STORE/HEAD"
"$EVIDENT" verify > v.out 2>&1 || { cat v.out; fail "the unmarked store does not verify"; }
expect_contains v.out "$(basename "$ev" .json) is an eval session's batch recorded before eval marked its batches"
printf '<!-- evident:table experiment=host-redteam74-namesake run=latest -->\n<!-- /evident:table -->\n' > t.md
expect_exit 0 "$EVIDENT" paper t.md
grep -q '^| pub ' t.md || { cat t.md; fail "the latest table is not the spec's batch"; }
grep -q 'cand-' t.md && { cat t.md; fail "the latest table is the unmarked eval batch"; }
# a claim on the candidate itself still reads its batch (the only one with it)
cand=$(python3 -S -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["candidate"])' ans)
printf '<!-- claim: faster experiment=host-redteam74-namesake a=%s b=ref -->\n' "$cand" > c.md
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
grep -qE "c.md:1: (supported|contradicted|unsupported): faster $cand vs ref: " c.out || { cat c.out; fail "no finding on the eval candidate"; }
grep -q "(null)" c.out && { cat c.out; fail "the claim on the eval candidate has no reason"; }
true
