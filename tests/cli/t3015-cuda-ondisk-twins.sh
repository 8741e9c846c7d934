# t3015 - on a GPU: two copies of one CUDA file under two names
# (tests/fixtures/specs/cuda-ondisk.yaml, ondisk.cuh) run at one speed and
# are one object file.  Each copy reads its own object on disk; nvcc's
# unstripped .symtab named the source (tmpxft_..._ondisk_slow.cudafe1.cpp),
# so the slow copy computed twice a launch while sharing the code hash,
# the device image and the loaded image with the other: one code to the
# claims, two speeds.  backend_cuda.c links stripped: no name on disk, one
# file (code.file_sha256 equal), one speed, sealed and trust: host.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --store st tests/fixtures/specs/cuda-ondisk.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run did not meet every expect: (exit $rc)"; }
python3 - st/runs/*.json <<'PY' || { cat run.txt; fail "the twins differ"; }
import json, sys
med, files = {}, {}
for p in sys.argv[1:]:
    d = json.load(open(p))
    if d.get("kind") == "batch":
        for r in d["variants"]:
            med[r["variant"]] = (r.get("stats") or {}).get("median")
    else:
        files.setdefault(d["variant"], set()).add((d.get("code") or {}).get("file_sha256"))
print("medians", med)
print("files", files)
bad = 0
for a, b in (("ref", "slow"), ("ref_host", "slow_host")):
    if not med.get(a) or not med.get(b) or not 0.8 < med[b] / med[a] < 1.25:
        print(f"{b} ran at {med.get(b)} us against {a}'s {med.get(a)} us"); bad = 1
    fa, fb = files.get(a, set()), files.get(b, set())
    if len(fa) != 1 or fa != fb or None in fa:
        print(f"{a} and {b} are not one object file: {fa} {fb}"); bad = 1
sys.exit(bad)
PY
# the object in the build cache has no symbol table (linked stripped)
so=$(grep -l "ondisk_slow.cu" build/cache/*/info.json 2>/dev/null | head -1)
[ -n "$so" ] || fail "no build of ondisk_slow.cu in build/cache"
python3 - "$(dirname "$so")/kernel.so" <<'PY' || fail "ondisk_slow's object keeps a symbol table"
import struct, sys
b = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
types = [struct.unpack_from("<I", b, shoff + i * shentsize + 4)[0] for i in range(shnum)]
print("section types", sorted(set(types)))
sys.exit(1 if 2 in types else 0)  # SHT_SYMTAB
PY
true
