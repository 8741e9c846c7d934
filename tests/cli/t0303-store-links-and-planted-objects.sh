# t0303 - red team 249's leads (tests/fixtures/adversary/host/redteam249/
# README.md): verify opened record files through symbolic links and never
# flagged one, so a link in objects/ whose target changes after verify
# (the bytes a later reader loads) passed; and run/plan.c plan_keep_plugin
# took a file already at the plug-in object's name as the kept object
# without hashing it, so a file planted there before the run was what
# later re-judges loaded.  Now a link (or any file that is not a regular
# one) under objects/ or runs/ is a verify problem, and a file at the
# plug-in's name that is not its bytes is replaced (store_put_checked).
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
expect_exit 0 "$EVIDENT" verify
r=$(ls artifacts/runs | grep -v batch | head -1)
obj=$(jget "artifacts/runs/$r" 'd["problem"]["plugin_object"]')
[ ${#obj} = 64 ] || fail "run $r kept no plug-in object ('$obj')"
p=artifacts/objects/$(echo $obj | cut -c1-2)/$(echo $obj | cut -c3-)
# an object made a link to a copy of its own bytes: verify names it
cp "$p" "$TEST_TMP/copy.so" && chmod u+w "$p" && rm -f "$p" && ln -s "$TEST_TMP/copy.so" "$p" || fail "link"
expect_exit 1 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "altered: $EVIDENT_STORE/objects/$(echo $obj | cut -c1-2)/$(echo $obj | cut -c3-): not a regular file"
rm -f "$p" && cp "$TEST_TMP/copy.so" "$p" && chmod 0444 "$p" || fail "restore"
expect_exit 0 "$EVIDENT" verify
# a manifest made a link to a copy of itself
cp "artifacts/runs/$r" "$TEST_TMP/m.json" && rm -f "artifacts/runs/$r" && ln -s "$TEST_TMP/m.json" "artifacts/runs/$r" || fail "link m"
expect_exit 1 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "altered: $EVIDENT_STORE/runs/$r: not a regular file"
rm -f "artifacts/runs/$r" && cp "$TEST_TMP/m.json" "artifacts/runs/$r" || fail "restore m"
expect_exit 0 "$EVIDENT" verify
# a file planted at the plug-in object's name in a fresh store before the
# run: replaced by the plug-in's bytes, with a warning
S2=$TEST_TMP/s2
mkdir -p "$S2/objects/$(echo $obj | cut -c1-2)" && echo "not the plug-in" > "$S2/objects/$(echo $obj | cut -c1-2)/$(echo $obj | cut -c3-)" || fail "plant"
EVIDENT_STORE=$S2 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml > s2.out 2>&1 || { cat s2.out; fail "run into s2"; }
expect_contains s2.out "was not its own bytes"
got=$(sha256sum "$S2/objects/$(echo $obj | cut -c1-2)/$(echo $obj | cut -c3-)" | cut -d' ' -f1)
expect_eq "$got" "$obj" "the plug-in object kept in s2"
expect_exit 0 "$EVIDENT" verify --store "$S2"
