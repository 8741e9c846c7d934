# t0194 - the loaded image (code.load_sha256) counts against a claim
# wherever a copy's evidence would, and the libraries an object loads are
# its code beside its hashes (issue 22; red team 87,
# tests/fixtures/adversary/host/redteam87/README.md).  Before:
#  fam:   `validated` on fam.c's comment-only copy fam_g.c (run at
#         TILE=64 only) was supported; fam.c fails at TILE=32, and the
#         family rule looked for the copy's own file alone;
#  long:  a value of the copy long_g.c's short batch was supported, though
#         long.c (one loaded image) crashed in two batches: only ok rows
#         of a load-equal copy were read;
#  drift: "naive faster than slow_g.c" was supported, though the copy's
#         original slow.c ran 5.7x faster in another batch: the drift rule
#         read built identity only;
#  lib:   "naive faster than libpass.c" with its library at forty passes
#         was contradicted by the drift rule, by a batch of the same object
#         with the library at one pass (red team 72's libpass again): one
#         binary and one loaded image, two programs.
. "$REPO/tests/cli/lib.sh"
mkrepo
d=tests/fixtures/adversary/host/redteam87
s=tests/fixtures/specs
# fam
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-fam.yaml
expect_contains "$TEST_TMP/out" "a32: wrong_output"
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-famcopy.yaml
expect_exit 1 "$EVIDENT" audit --strict "$d/fam.md"
expect_contains "$TEST_TMP/out" "contradicted: validated host-redteam87-famcopy/g: 1 of 3 run(s) of the current source failed"
expect_contains "$TEST_TMP/out" "(host-redteam87-fam/a32: the kernel file at TILE=32): wrong_output"
# long (two batches that crash, the copy's short one ok)
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-long.yaml
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-long.yaml
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-short.yaml
med=$(python3 - "$EVIDENT_STORE"/runs/*.json <<'PY'
import json, sys
for p in sys.argv[1:]:
    b = json.load(open(p))
    if b.get("kind") == "batch" and b.get("experiment") == "host-redteam87-short":
        print([r for r in b["variants"] if r["variant"] == "g"][0]["stats"]["median"])
PY
)
[ -n "$med" ] || fail "no median of the copy's short batch"
printf 'long_g.c takes %.4gus. <!-- claim: value experiment=host-redteam87-short variant=g stat=median_us value=%.4gus -->\n' \
	"$med" "$med" > long.md
expect_exit 1 "$EVIDENT" audit --strict long.md
expect_contains "$TEST_TMP/out" "contradicted: value host-redteam87-short/g"
expect_contains "$TEST_TMP/out" "but only 1 of 3 batches of the same code on"
expect_contains "$TEST_TMP/out" "a did not run cleanly: crashed"
# drift
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-drifthist.yaml
expect_exit 0 "$EVIDENT" run --no-progress $s/host-redteam87-drift.yaml
# the copy's history is read (before: nothing said of it, supported);
# the claim is contradicted unless naive's CI lies under even g's
# fastest, which the rule releases (once under make test's sanitized pass
# in a fresh clone: "g ran 2.57x slower here ... but the other side's
# median CI ... lies under even that", supported)
"$EVIDENT" audit --strict "$d/drift.md" > drift.out 2>&1
rc=$?
# (a verdict other than faster under load, inconclusive once in a fresh
# clone's sanitized pass, contradicts the claim before any drift rule)
# did g drift here at all?  Its median against b's (its original's) in
# the history batch, beyond the rule's 1.25x (code_identity.h
# CODE_DRIFT_MARGIN): under a heavy load the history's few samples can
# be slow too (a fresh clone's make test beside a red team at load 21:
# supported, no drift to read)
drifted=$(python3 - "$EVIDENT_STORE"/runs/*.json <<'PY'
import json, sys
med = {}
for p in sys.argv[1:]:
    b = json.load(open(p))
    if b.get("kind") == "batch" and b.get("experiment") in ("host-redteam87-drifthist", "host-redteam87-drift"):
        for r in b["variants"]:
            if r.get("stats") and r["stats"].get("median"):
                med[(b["experiment"], r["variant"])] = r["stats"]["median"]
h, d = med.get(("host-redteam87-drifthist", "b")), med.get(("host-redteam87-drift", "g"))
print(1 if h and d and d > 1.25 * h else 0)
PY
)
# (the stress rule decides before the drift rule: naive's stress samples
# read over 3x its timing median beside a load, 4.57x once beside three
# red teams; the drift is then not tested, the rest of the test runs)
if grep -q "ran a stress distribution of the problem .* slower than its timing median" drift.out; then
	echo "note: drift not tested: naive's stress samples read slow at load $(cut -d' ' -f1 /proc/loadavg)" >&2
	[ $rc = 1 ] || { cat drift.out; fail "a claim held by the stress rule exited $rc"; }
elif grep -q "verdict faster" drift.out && [ "$drifted" = 1 ]; then
	grep -q "slower here than the fastest its code was recorded at in the store" drift.out ||
		{ cat drift.out; fail "the drift rule did not read the copy's history"; }
fi
if grep -q "ran a stress distribution of the problem .* slower than its timing median" drift.out; then
	:
elif ! grep -q "verdict faster" drift.out; then
	[ $rc = 1 ] || { cat drift.out; fail "a claim whose verdict is not faster exited $rc"; }
elif grep -q "lies under even that" drift.out || [ "$drifted" = 0 ]; then
	[ $rc = 0 ] || { cat drift.out; fail "a released or undrifted claim exited $rc"; }
else
	[ $rc = 1 ] && grep -q "contradicted: faster naive vs g" drift.out && grep -q "but g, the side it says is slower, ran" drift.out ||
		{ cat drift.out; fail "the drifted side did not contradict the claim (exit $rc)"; }
fi
# lib: libpass.c's object with its library at one pass, then at forty
mkdir -p "$TEST_TMP/lib"
chmod 755 "$TEST_TMP" "$TEST_TMP/lib"
lib() {
	cc -shared -fPIC -O2 -DPASSES=$1 -o "$TEST_TMP/lib/librt72pass.so" \
		"$REPO/tests/fixtures/adversary/host/redteam72/rt72lib.c" || fail "cannot build the library"
	chmod 644 "$TEST_TMP/lib/librt72pass.so"
}
libspec() {
	cat > experiments/$1.yaml <<Y
name: $1
problem: rowsum
backend: host
baseline: $2
shape: {R: 512, C: 256}
flags: [-L$TEST_TMP/lib, "-Wl,--no-as-needed", -lrt72pass, "-Wl,-rpath,$TEST_TMP/lib"]
variants:
  $2: {kernel: $3}
  ref: {kernel: tests/fixtures/adversary/host/redteam72/libpass.c, NOP: 1}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 10, cache: hot}
repeats: $4
limits: {timeout_s: 60}
Y
}
libspec libhist f "$d/fam.c, TILE: 64" 3
libspec libnow naive kernels/rowsum/naive.c 5
lib 1
expect_exit 0 "$EVIDENT" run --no-progress experiments/libhist.yaml
lib 40
expect_exit 0 "$EVIDENT" run --no-progress experiments/libnow.yaml
python3 - "$TEST_TMP/lib/librt72pass.so" "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "the records do not say which libraries are loaded"
import json, os, sys
lib = os.path.realpath(sys.argv[1])
runs = [json.load(open(p)) for p in sys.argv[2:]]
refs = [r for r in runs if r.get("kind") != "batch" and r.get("variant") == "ref"]
assert refs, "no run of libpass.c"
for r in refs:
    src = [s for s in r["code"]["sources"] if s["path"] == lib]
    assert src and src[0].get("loaded") is True, src
    assert all(not s.get("loaded") for s in r["code"]["sources"] if s["path"] != lib)
assert len({r["code"]["binary_sha256"] for r in refs}) == 1, "the library changed the object: this test no longer probes one object, two programs"
PY
echo 'naive is faster than libpass.c at forty passes. <!-- claim: faster experiment=libnow a=naive b=ref -->' > lib.md
# what the fix changed: the one-pass batch is not the same code, so no
# drift rule reads it (before: contradicted, "ran 8.31x slower here than
# the fastest its code was recorded at").  The verdict itself is a timing:
# under make test's sanitized pass beside other tests a process can run
# slow (2.905x [0.415, 3.751], inconclusive, once): only an audit that
# says faster must say supported
"$EVIDENT" audit --strict lib.md > lib.out 2>&1
grep -q "slower here than the fastest its code was recorded at" lib.out && { cat lib.out; fail "the one-pass batch read as the same code (drift)"; }
if grep -q "verdict faster" lib.out; then
	grep -q "supported: faster naive vs ref" lib.out || { cat lib.out; fail "a faster verdict not supported"; }
fi
exit 0
