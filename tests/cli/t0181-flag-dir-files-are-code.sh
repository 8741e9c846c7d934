# t0181 - a header (or library) read from a directory a spec's flags name
# outside the repository is the kernel's code: its hash joins the
# record's sources, so the code identity and the build cache see it
# change.  Before, red team 72's incpass read the passes its rowsum made
# from /tmp/rt72inc/rt72_passes.h: the header changed between batches
# under one build key and identity (the cache served the stale object, and
# eval held 15 of 15 honest faster candidates by the fast batch).
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p "$TEST_TMP/inc"
chmod 755 "$TEST_TMP" "$TEST_TMP/inc"
echo '#define RT72_PASSES 1' > "$TEST_TMP/inc/rt72_passes.h"
chmod 644 "$TEST_TMP/inc/rt72_passes.h"
cat > experiments/inc.yaml <<Y
name: inc
problem: rowsum
backend: host
baseline: ref
shape: {R: 512, C: 256}
flags: [-I$TEST_TMP/inc]
variants:
  ref: {kernel: tests/fixtures/adversary/host/redteam72/incpass.c, NOP: 1}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
repeats: 1
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/inc.yaml
echo '#define RT72_PASSES 9' > "$TEST_TMP/inc/rt72_passes.h"
expect_exit 0 "$EVIDENT" run --no-progress experiments/inc.yaml
python3 - "$TEST_TMP/inc/rt72_passes.h" artifacts/runs/*.json <<'PY' || fail "the flag directory's header is not the kernel's code"
import json, os, sys
hdr = os.path.realpath(sys.argv[1])
runs = sorted((json.load(open(p)) for p in sys.argv[2:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 2, len(runs)
shas = []
for r in runs:
    src = {s["path"]: s["sha256"] for s in r["code"]["sources"]}
    print(r["run_id"], sorted(src))
    assert hdr in src, "header not in the sources"
    shas.append(src[hdr])
assert shas[0] != shas[1], "the header's hash did not change"
b = [r["code"]["binary_sha256"] for r in runs]
assert b[0] != b[1], "the cache served the first object"
PY

# the library form (red team 72's libpass): a library the object names,
# from a -L directory outside the repository, joins the sources too
mkdir -p "$TEST_TMP/lib"
chmod 755 "$TEST_TMP/lib"
cc -shared -fPIC -O2 -DPASSES=1 -o "$TEST_TMP/lib/librt72pass.so" "$REPO/tests/fixtures/adversary/host/redteam72/rt72lib.c" ||
	fail "cannot build the library"
chmod 644 "$TEST_TMP/lib/librt72pass.so"
cat > experiments/lib.yaml <<Y
name: lib
problem: rowsum
backend: host
baseline: ref
shape: {R: 512, C: 256}
flags: [-L$TEST_TMP/lib, "-Wl,--no-as-needed", -lrt72pass, "-Wl,-rpath,$TEST_TMP/lib"]
variants:
  ref: {kernel: tests/fixtures/adversary/host/redteam72/libpass.c, NOP: 1}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
repeats: 1
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/lib.yaml
python3 - "$TEST_TMP/lib/librt72pass.so" artifacts/runs/*.json <<'PY' || fail "the flag directory's library is not the kernel's code"
import json, os, sys
lib = os.path.realpath(sys.argv[1])
runs = [json.load(open(p)) for p in sys.argv[2:]]
runs = [r for r in runs if r.get("kind") != "batch" and r.get("experiment") == "lib"]
assert len(runs) == 1, len(runs)
src = [s["path"] for s in runs[0]["code"]["sources"]]
print(src)
assert lib in src, "library not in the sources"
PY

# the rpath form: the object links against the -L directory's library,
# but the loader takes the one in an rpath directory no flag names (lib2):
# the file the box maps is the code, and a change to it makes the cached
# entry stale.  Before, only -L directories were read, so lib2's library
# was in no record and changed under one build key and identity.
mkdir -p "$TEST_TMP/lib2"
chmod 755 "$TEST_TMP/lib2"
cc -shared -fPIC -O2 -DPASSES=3 -o "$TEST_TMP/lib2/librt72pass.so" "$REPO/tests/fixtures/adversary/host/redteam72/rt72lib.c" ||
	fail "cannot build the rpath library"
chmod 644 "$TEST_TMP/lib2/librt72pass.so"
sed -e 's/^name: lib$/name: rpath/' -e "s|-Wl,-rpath,$TEST_TMP/lib\"|-Wl,-rpath,$TEST_TMP/lib2\"|" experiments/lib.yaml > experiments/rpath.yaml
grep -q "rpath,$TEST_TMP/lib2" experiments/rpath.yaml || fail "sed lib.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/rpath.yaml
cc -shared -fPIC -O2 -DPASSES=1 -o "$TEST_TMP/lib2/librt72pass.so" "$REPO/tests/fixtures/adversary/host/redteam72/rt72lib.c" ||
	fail "cannot rebuild the rpath library"
expect_exit 0 "$EVIDENT" run --no-progress experiments/rpath.yaml
python3 - "$TEST_TMP/lib2/librt72pass.so" artifacts/runs/*.json <<'PY' || fail "the rpath directory's library is not the kernel's code"
import json, os, sys
lib = os.path.realpath(sys.argv[1])
runs = sorted((json.load(open(p)) for p in sys.argv[2:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch" and r.get("experiment") == "rpath"]
assert len(runs) == 2, len(runs)
shas = []
for r in runs:
    src = {s["path"]: s["sha256"] for s in r["code"]["sources"]}
    print(r["run_id"], sorted(src), r["code"].get("cached"))
    assert lib in src, "the rpath library not in the sources"
    shas.append(src[lib])
assert shas[0] != shas[1], "the library's hash did not change: the cache served the first entry"
PY
