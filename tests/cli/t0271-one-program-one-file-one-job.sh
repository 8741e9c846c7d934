# t0271 - red team 180 (tests/fixtures/adversary/host/redteam180/README.md):
# rows evident called one code that were two programs, each a fast row of
# the reference's "code" that held honest challengers in eval (9 of 11)
# and made a 5-7x gap "an A/A pair".
# 1. knobtag reads warmup_ms from its job descriptor and runs 1 pass at
#    7 ms, 8 otherwise: one object, so one code; its warmup_ms 7 batch was
#    the drift rule's fastest of the reference (eval.c fastest_of).  Now
#    the history is the same job (code_identity.c code_same_history).
# 2. linktag reads DT_FLAGS from _DYNAMIC: linked -z now (a flag the code
#    hash leaves out) it runs 1 pass; that batch was the plain build's
#    history by the code hash.  Now the code hash merges only one file.
# 3. nametag: byte-identical copies with a section of their own holding
#    __FILE__ (kept by -s) are two files of one loaded image; each reads
#    its own file and is fast or slow by its name: the batch called the
#    gap "an A/A pair".  Now the note asks for one file.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
S=tests/fixtures/specs
F=tests/fixtures/adversary/host/redteam180
expect_exit 0 "$EVIDENT" run --no-progress --repeats 2 $S/host-redteam180-knobtag-w7.yaml
"$EVIDENT" eval --reference d --repeats 2 --no-progress $S/host-redteam180-knobtag.yaml < $F/eval-honest.jsonl > k.out 2>&1 ||
	fail "eval (knobtag) failed: $(tail -3 k.out)"
expect_match k.out '"candidate":"cand-'
# the drift rule's history (this job's: reference_drift) and the decision
# do not read the w7 batch.  Red team 285 row 2b: eval's other-job rule
# (eval.c ref_fastest_other_job) now reads the reference's rows at any
# knobs, so reference_other_job may name it: the conservative side, a
# challenger not under that batch's median would be held, never promoted
python3 -S - k.out > k.txt <<'PY' || fail "eval's answer unreadable"
import json, sys
for l in open(sys.argv[1]):
    if l.startswith("{"):
        d = json.loads(l)
        print("decision:", d.get("decision"))
        print("reference_drift:", json.dumps(d.get("reference_drift")))
PY
expect_match k.txt "^decision: "
expect_not_contains k.txt "knobtag-w7"
# what the records keep of the job: the fixed seed, the box's environment
# (one shell: one hash), the knobs; the worker's own descriptor is not
# in the record, its knobs are
python3 - artifacts/runs/*.json <<'PY' || fail "the records do not say what of its job a kernel could read"
import json, sys
env, warm, box = set(), set(), set()
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    s = json.load(open(f))["settings"]
    assert s["seed"] == 1, (f, s.get("seed"))
    env.add(s["environment_sha256"])
    warm.add(s["warmup_ms"])
    box.add(s.get("box_self_sha256"))
assert len(env) == 1, env
# what each worker saw of its own process (worker_self_hash): one value
# for every process of one shell (red team 187); absent only unboxed
assert len(box) == 1, box
assert warm == {5.0, 7.0}, warm
PY
expect_exit 0 "$EVIDENT" run --no-progress --repeats 2 $S/host-redteam180-linktag-now.yaml
"$EVIDENT" eval --reference d --repeats 2 --no-progress $S/host-redteam180-linktag.yaml < $F/eval-honest.jsonl > l.out 2>&1 ||
	fail "eval (linktag) failed: $(tail -3 l.out)"
expect_match l.out '"candidate":"cand-'
expect_not_contains l.out "linktag-now"
expect_exit 0 "$EVIDENT" run --no-progress --repeats 2 $S/host-redteam180-nametag.yaml
expect_match "$TEST_TMP/out" "^f +ok "
expect_not_contains "$TEST_TMP/out" "A/A pair"
expect_not_contains "$TEST_TMP/out" "one program"
# 4. red team 182: what of the runner's process the box passes on is the
#    job too: a batch under another nice value (which the worker
#    inherits and a kernel reads with getpriority) has another
#    environment hash, and the record says the nice value and CPUs
n0=$(nice)
if [ "$n0" -lt 19 ]; then
	expect_exit 0 nice -n 1 "$EVIDENT" run --no-progress --repeats 1 $S/host-redteam180-knobtag-w7.yaml
	python3 - "$n0" artifacts/runs/*.json <<'PY' || fail "a batch under another nice value has the same environment hash"
import json, sys
n0 = int(sys.argv[1])
by = {}
for f in sys.argv[2:]:
    if f.endswith("-batch.json"):
        continue
    s = json.load(open(f))["settings"]
    assert s["cpus"] and s["cpus"] != "?", s["cpus"]
    by.setdefault(s["nice"], set()).add((s["environment_sha256"], s.get("box_self_sha256")))
assert set(by) == {n0, n0 + 1}, by
assert len(by[n0]) == 1 and len(by[n0 + 1]) == 1, by
(e0, b0), (e1, b1) = list(by[n0])[0], list(by[n0 + 1])[0]
assert e0 != e1 and b0 != b1, by
PY
fi
