# t0270: byte-identical copies of a host kernel under two names, with no
# flags of the spec's, are one file (host objects are linked stripped,
# backend_host.c host_flags' -s), so one load path, and run at one speed.
# Before, the object kept its source's name in .symtab's STT_FILE symbol:
# two files with one loaded image, which the code identity merged while
# each copy read which it was from its load path (red team 178's
# pathtwin: a 4.9x "faster" with the note "an A/A pair", 2 of 3 batches;
# an eval incumbent's fast copy held an honest challenger 3 of 3).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/host-redteam178-pathtwin.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "the two copies are not one file at one speed"
import json, sys
ids, med = set(), {}
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    d = json.load(open(f))
    assert d["outcome"] == "ok", (f, d["outcome"])
    c = d["code"]
    ids.add((c["file_sha256"], c["binary_sha256"], c["load_sha256"]))
    med[d["variant"]] = d["timing"]["stats"]["min"]
print(len(ids), med)
assert len(ids) == 1, ids
assert len(med) == 2, med
# pathtwin runs 8 passes on one path and 1 on the other; by the fastest
# sample, which load only slows (a make test beside three helpers, load
# 9.7: medians 289 and 2636 us, fastest 265 and 278)
assert max(med.values()) / min(med.values()) < 3, med
PY
exit 0
