# flip a byte in an object and in a manifest, truncate one object, delete one object and one manifest: verify names each and exits 1
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run 2"
expect_exit 0 "$EVIDENT" verify
# objects every run refers to: the spec, a kernel source, a header
obj() { h=$(sha256sum "$1" | cut -c1-64); echo "artifacts/objects/${h:0:2}/${h:2}"; }
objs=("$(obj kernels/host/attn_naive.c)" "$(obj kernels/evident_kernel.h)" "$(obj tests/fixtures/specs/tiny.yaml)")
for o in "${objs[@]}"; do [ -f "$o" ] || fail "expected object $o"; done
runs=($(ls artifacts/runs/*.json | sort))
chmod u+w "${objs[0]}" "${objs[1]}" "${runs[1]}"
printf 'X' | dd of="${objs[0]}" bs=1 seek=3 conv=notrunc 2>/dev/null
truncate -s 5 "${objs[1]}"
rm -f "${objs[2]}"
sed -i '0,/"outcome": "ok"/s//"outcome": "ko"/' "${runs[1]}"
cp "${runs[2]}" "$TEST_TMP/deleted.json"
rm -f "${runs[2]}"
expect_exit 1 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "${objs[0]#artifacts}: content hashes to"
expect_contains "$TEST_TMP/out" "${objs[1]#artifacts}: content hashes to"
expect_contains "$TEST_TMP/out" "${objs[2]#artifacts} (referenced by run"
grep -c "^missing: .*${objs[2]#artifacts}" "$TEST_TMP/out" | grep -qx 1 || fail "missing object reported more than once"
expect_contains "$TEST_TMP/out" "${runs[1]#artifacts}: digest does not match its content"
# the run whose "prev" was the deleted manifest's digest names the gap
d2=$(jget "$TEST_TMP/deleted.json" "d['digest']")
r3=$(grep -l "\"prev\": \"$d2\"" artifacts/runs/*.json | head -1); r3=$(basename "$r3" .json)
[ -n "$r3" ] || fail "no manifest follows the deleted one (was it the newest?)"
expect_contains "$TEST_TMP/out" "the manifest before run $r3"
grep -q "problems" "$TEST_TMP/out" || fail "no summary"
