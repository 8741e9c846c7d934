# t0191 - every name a flag directory outside the repository shows joins
# the build key: a file only looked for (`#if __has_include(<marker>)`),
# never read, chooses the code, and gcc lists no such probe in its
# dependency list.  Before (red team 81's hasinc,
# tests/fixtures/adversary/host/redteam81/README.md), a marker added to
# -I's directory made another program under the same build key: the
# cache served the first object, and eval promoted a comment-only copy of
# the reference against the cached slow one.  The walk has no depth short
# of 64 and follows links to directories (red team 82's deep: a marker 12
# directories down, past a walk of 8, made one key again).
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p "$TEST_TMP/inc"
chmod 755 "$TEST_TMP" "$TEST_TMP/inc"
sed -e "s|-I/tmp/rt81inc|-I$TEST_TMP/inc|" -e 's/samples: 200/samples: 5/' \
	tests/fixtures/specs/host-redteam81-hasinc.yaml > experiments/hasinc.yaml
grep -q -- "-I$TEST_TMP/inc" experiments/hasinc.yaml || fail "the spec did not take the directory"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
touch "$TEST_TMP/inc/rt81_slow"
chmod 644 "$TEST_TMP/inc/rt81_slow"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "the marker's presence did not change the build key"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 2, len(runs)
k = [r["code"]["build_key"] for r in runs]
b = [r["code"]["binary_sha256"] for r in runs]
print("keys", k, "binaries", b)
assert k[0] != k[1], "one build key for the two directory listings"
# (the compile itself sees only the files the preprocessor's rule names,
# in the repository and in the flag directories alike since red team 98:
# a name only probed is not shown to it, so both objects may be one)
assert not runs[1]["build"]["cached"], "the second build was a cache hit"
PY
# a marker 12 directories down, and one behind a link to a directory: each
# changes the key (three keys in all, by the records' build keys)
rm -f "$TEST_TMP/inc/rt81_slow"
mkdir -p "$TEST_TMP/inc/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12" "$TEST_TMP/far"
chmod -R 755 "$TEST_TMP/inc" "$TEST_TMP/far"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
touch "$TEST_TMP/inc/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/deep_marker"
chmod 644 "$TEST_TMP/inc/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/deep_marker"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
ln -s "$TEST_TMP/far" "$TEST_TMP/inc/link"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
touch "$TEST_TMP/far/far_marker"
chmod 644 "$TEST_TMP/far/far_marker"
expect_exit 0 "$EVIDENT" run --no-progress experiments/hasinc.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "a deep or linked marker did not change the build key"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
k = [r["code"]["build_key"] for r in runs if r.get("kind") != "batch"][2:]
print("keys", k)
assert len(k) == 4 and len(set(k)) == 4, "keys not all different"
PY
exit 0
