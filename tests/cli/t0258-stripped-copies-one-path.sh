# t0258: byte-identical copies of one kernel under six names, built
# stripped (-Wl,-s: the source's name is nowhere in the object), are one
# file, one binary and one loaded image, so one code to eval and the
# audit; and each copy is loaded from one path, named by the object's own
# hash (build.c publish_by_object), so none can tell which copy it is.
# Before, the path was the build key's cache entry, and the key covers
# the kernel file's name: pathbit.c (slow where a bit of its own path is
# set) ran two copies at 591 and 569 us and four at 3522-3731 us in one
# batch (main 550d053f, 2026-12-03), one code to every reader.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-pathbit.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "the copies are not one code at one speed"
import json, sys
ids, med = set(), {}
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    d = json.load(open(f))
    assert d["outcome"] == "ok", (f, d["outcome"])
    c = d["code"]
    ids.add((c["file_sha256"], c["binary_sha256"], c["load_sha256"]))
    med[d["variant"]] = d["timing"]["stats"]["median"]
print(len(ids), med)
assert len(ids) == 1, ids
assert len(med) == 6, med
# one speed: a copy that took the other path runs 6-8x apart
assert max(med.values()) / min(med.values()) < 3, med
PY
exit 0
