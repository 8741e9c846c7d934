# t0302 - red team 249 (tests/fixtures/adversary/host/redteam249/): the
# store's chain has no key, so a batch cut out of the store (rechain.py
# drop) or a run's commit rewritten (rechain.py sub), with every later
# prev and digest recomputed, read `evident verify` "intact".  A store in
# a git work tree is now anchored to it (store/store_anchor.c): each
# record file HEAD committed must be in the store byte for byte, and with
# --history no commit may have deleted or modified one.  A store outside
# git says it is not anchored (a note); records not yet committed pass.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git specs/tiny.yaml adversary/host/redteam249/rechain.py
RC=tests/fixtures/adversary/host/redteam249/rechain.py
A=$EVIDENT_STORE # verify names the store as given
gitc() { git -c user.email=t@t -c user.name=t "$@" || fail "git $*"; }
for i in 1 2; do "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run $i"; done
gitc add -A artifacts
gitc commit -qm runs
head=$(git rev-parse HEAD | cut -c1-12)
expect_exit 0 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^anchored: $A: to the git commit HEAD \($head\), [0-9]+ record files"
expect_match "$TEST_TMP/out" "^verify: $A: .*intact"
expect_exit 0 "$EVIDENT" verify --history
expect_match "$TEST_TMP/out" "its history: 2 commits read"
# a new run, not committed yet: new records pass
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run 3"
expect_exit 0 "$EVIDENT" verify
gitc add -A artifacts
gitc commit -qm "run 3"
cp -a artifacts "$TEST_TMP/keep"
# row 1: the first batch cut out, the chain recomputed: the store's own
# checks pass (intact but for orphan notes), the anchor does not
first=$(ls artifacts/runs | head -1 | cut -d- -f1)
python3 $RC artifacts drop "$first" > drop.out || fail "rechain.py drop"
expect_match drop.out "re-chained [1-9]"
head=$(git rev-parse HEAD | cut -c1-12)
expect_exit 1 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^missing: $A/runs/$first-.*\.json: missing since the commit HEAD \($head\) recorded it"
expect_match "$TEST_TMP/out" "^altered: $A/runs/.*\.json: differs from the commit HEAD \($head\) recorded"
expect_not_contains "$TEST_TMP/out" "digest does not match"
# the scrub committed: HEAD holds it, the history does not
gitc add -A artifacts
gitc commit -qm scrub
scrub=$(git rev-parse HEAD | cut -c1-12)
expect_exit 0 "$EVIDENT" verify
expect_exit 1 "$EVIDENT" verify --history
expect_match "$TEST_TMP/out" "^rewritten: $A/runs/$first-.*\.json: deleted by commit $scrub \(\"scrub\"\), after its parent recorded it"
expect_match "$TEST_TMP/out" "^rewritten: $A/runs/.*\.json: modified by commit $scrub"
expect_match "$TEST_TMP/out" "^verify: $A: .*[0-9]+ problems"
# row 2: a run's commit rewritten and the chain recomputed (the store as
# committed before the scrub)
gitc reset -q --hard HEAD~1
rm -rf artifacts && cp -a "$TEST_TMP/keep" artifacts
expect_exit 0 "$EVIDENT" verify --history
r=$(ls artifacts/runs | grep -v batch | tail -1); r=${r%.json}
old=$(jget "artifacts/runs/$r.json" 'd["code"]["git"]["commit"]')
[ ${#old} = 40 ] || fail "run $r recorded no commit ('$old')"
python3 $RC artifacts sub "$r" "\"commit\": \"$old\"" "\"commit\": \"0123456789abcdef0123456789abcdef01234567\"" >/dev/null ||
	fail "rechain.py sub"
expect_exit 1 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^altered: $A/runs/$r\.json: differs from the commit HEAD"
expect_match "$TEST_TMP/out" "^verify: $A: .*[0-9]+ problems?$"
# a store outside any git repository: not anchored, a note
rm -rf artifacts && cp -a "$TEST_TMP/keep" artifacts
mkdir "$TEST_TMP/outside" && cp -a "$TEST_TMP/keep" "$TEST_TMP/outside/st"
expect_exit 0 "$EVIDENT" verify --store "$TEST_TMP/outside/st"
expect_contains "$TEST_TMP/out" "is not anchored (no git repository)"
expect_match "$TEST_TMP/out" "^verify: .*intact \([0-9]+ notes?\)"
