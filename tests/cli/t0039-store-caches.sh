# the store's caches (HEAD, index) and a stale lock never change what it says: deleted, garbled or left by a dead writer, ls and show answer the same, the next run chains on without waiting, verify notes a lying index and rebuilds it; git sees neither (the store's .gitignore)
. "$REPO/tests/cli/lib.sh"
mkrepo git specs/tiny.yaml # of tests/fixtures only what it reads (lib.sh mkrepo)
for i in 1 2; do "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run $i"; done
for f in HEAD index .gitignore; do [ -f "artifacts/$f" ] || fail "no artifacts/$f"; done
"$EVIDENT" ls > "$TEST_TMP/ls0" 2>&1 || fail "ls"
# a run by the hash part of its id
id=$(ls artifacts/runs | grep -v batch | head -1); id=${id%.json}
expect_exit 0 "$EVIDENT" show --json "${id##*-}"
cmp "$TEST_TMP/out" "artifacts/runs/$id.json" || fail "show by hash part gave another run"
# git commits runs/ and objects/ only (and the store's .gitignore and .gitattributes)
git add -A artifacts && git -c user.email=t@t -c user.name=t commit -qm runs || fail "git commit"
git ls-files artifacts | grep -vE '^artifacts/(runs|objects)/|^artifacts/\.git(ignore|attributes)$' && fail "caches were committed"
# damage every cache, and leave the lock of a writer that died
rm artifacts/index
echo junk > artifacts/HEAD
"$EVIDENT" ls > "$TEST_TMP/ls1" 2>&1 || fail "ls without caches"
diff "$TEST_TMP/ls0" "$TEST_TMP/ls1" || fail "ls differs without its caches"
[ -s artifacts/index ] || fail "ls did not rebuild the index"
sh -c 'exit 0' & dead=$!; wait $dead
echo "$dead $(hostname) 2026-01-01T00:00:00.000Z" > artifacts/HEAD.lock
start=$(date +%s)
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>"$TEST_TMP/run3" || { cat "$TEST_TMP/run3"; fail "run 3"; }
[ $(( $(date +%s) - start )) -lt 60 ] || fail "run 3 waited for the stale lock"
expect_contains "$TEST_TMP/run3" "removed the stale lock"
[ ! -e artifacts/HEAD.lock ] || fail "the stale lock is still there"
python3 - artifacts/runs/*.json <<'P' || fail "the chain is not a line"
import json, sys
prevs = [json.load(open(f))["prev"] for f in sys.argv[1:]]
assert len(set(prevs)) == len(prevs) == 9 and prevs.count(None) == 1, prevs
P
# an index that lies about a run: a note, then rebuilt; a clean store has no notes
expect_exit 0 "$EVIDENT" verify
expect_not_contains "$TEST_TMP/out" "note:"
id2=$(ls artifacts/runs | grep -v batch | sed -n 2p); id2=${id2%.json}
sed -i "s/^\($id2 [0-9a-f]*\) [0-9a-f]*/\1 -/" artifacts/index
expect_exit 0 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "1 line unlike the manifest (rebuilt from the manifests)"
expect_exit 0 "$EVIDENT" verify
expect_not_contains "$TEST_TMP/out" "note:"
# one that lies in a run's attrs (its outcome, which ls prints): verify reads
# the truth from the manifest (a view of its members, the bytes intact)
grep -q "^$id2 .*\"outcome\":\"ok\"" artifacts/index || fail "no ok outcome in the index line of $id2"
sed -i "/^$id2 /s/\"outcome\":\"ok\"/\"outcome\":\"crashed\"/" artifacts/index
expect_exit 0 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "1 line unlike the manifest (rebuilt from the manifests)"
grep -q "^$id2 .*\"outcome\":\"ok\"" artifacts/index || fail "verify did not rebuild the line of $id2"
expect_exit 0 "$EVIDENT" verify
expect_not_contains "$TEST_TMP/out" "note:"
[ -z "$(git status --porcelain --ignored=no -- artifacts | grep -v '^?? artifacts/runs/\|^?? artifacts/objects/')" ] || { git status --porcelain artifacts; fail "git sees a cache"; }
