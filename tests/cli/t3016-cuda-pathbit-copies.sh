# t3016 - on a GPU: byte-identical CUDA copies under four names
# (tests/fixtures/specs/cuda-pathbit.yaml, pathbit.cuh) are one object file
# and run at one speed, sealed and trust: host.  Each copy hashes the path
# it was loaded from and launches twice where a bit of it is set; that
# path was the build key's cache entry, which covers the file's name (the
# host's copies split 2 and 4 of 6 by it, t0258), and is now named by the
# object's own hash (build.c publish_by_object).
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --store st tests/fixtures/specs/cuda-pathbit.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run did not meet every expect: (exit $rc)"; }
python3 - st/runs/*.json <<'PY' || { cat run.txt; fail "the copies differ"; }
import json, sys
med, files = {}, set()
for p in sys.argv[1:]:
    d = json.load(open(p))
    if d.get("kind") == "batch":
        for r in d["variants"]:
            med[r["variant"]] = (r.get("stats") or {}).get("median")
    else:
        files.add((d.get("code") or {}).get("file_sha256"))
print("medians", med)
print("files", files)
bad = len(files) != 1 or None in files
for a, b in (("pb0", "pb1"), ("pb0", "pb2"), ("pb0", "pb3"), ("pb2_host", "pb3_host")):
    if not med.get(a) or not med.get(b) or not 0.8 < med[b] / med[a] < 1.25:
        print(f"{b} ran at {med.get(b)} us against {a}'s {med.get(a)} us"); bad = 1
sys.exit(1 if bad else 0)
PY
true
