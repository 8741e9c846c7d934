# t0304 - red team 250 rows 3, 4, 6 (tests/fixtures/adversary/host/
# redteam250/README.md): verify's git anchor (store/store_anchor.c) was
# dodged by moving the store in the commit that edited it (--history
# compared a commit only against a parent with a store at the store's
# current path), by a git repository made in the store's folder (or a
# .git file there, or a repository in a folder between the store and the
# project's root: the innermost repository was the anchor), and a shallow
# clone's --history read "0 commits" and passed a committed rewrite
# without saying the history was cut.  Now the walk follows the store to
# the folder its records left in the parent, every enclosing repository
# that tracks the store's files anchors it and an inner one is a problem,
# and a parent the walk cannot read is a note naming the commit.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git specs/tiny.yaml adversary/host/redteam249/rechain.py
RC=tests/fixtures/adversary/host/redteam249/rechain.py
gitc() { git -c user.email=t@t -c user.name=t "$@" || fail "git $*"; }
for i in 1 2; do "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run $i"; done
gitc add -A artifacts
gitc commit -qm runs
base=$(git rev-parse HEAD)
r=$(ls artifacts/runs | grep -v batch | tail -1); r=${r%.json}
old=$(jget "artifacts/runs/$r.json" 'd["code"]["git"]["commit"]')
[ ${#old} = 40 ] || fail "run $r recorded no commit ('$old')"
subst() { python3 $RC "$1" sub "$r" "\"commit\": \"$old\"" "\"commit\": \"0123456789abcdef0123456789abcdef01234567\"" >/dev/null || fail "rechain.py sub"; }

# row 3: a pure move passes --history; a move with an edit in the same
# commit is a rewrite named by that commit
gitc mv artifacts moved
gitc commit -qm "move"
expect_exit 0 "$EVIDENT" verify --history --store moved
expect_match "$TEST_TMP/out" "its history: 3 commits read, 1 changes"
gitc reset -q --hard "$base"
rm -rf moved # untracked files the move took along
gitc mv artifacts moved
subst moved
gitc add -A moved
gitc commit -qm "move and edit"
ren=$(git rev-parse HEAD | cut -c1-12)
expect_exit 0 "$EVIDENT" verify --store moved
expect_exit 1 "$EVIDENT" verify --history --store moved
expect_match "$TEST_TMP/out" "^rewritten: moved/runs/$r\.json: modified by commit $ren \(\"move and edit\"\)"
# moved twice: the older move's edit is still found
gitc mv moved again
gitc commit -qm "move again"
expect_exit 1 "$EVIDENT" verify --history --store again
expect_match "$TEST_TMP/out" "^rewritten: again/runs/$r\.json: modified by commit $ren"

# row 6: a shallow clone says where its history is cut, with and
# without --history
git clone -q --depth 1 "file://$TEST_TMP/repo" "$TEST_TMP/shallow" || fail "shallow clone"
top=$(git -C "$TEST_TMP/shallow" rev-parse HEAD | cut -c1-12)
expect_exit 0 "$EVIDENT" verify --store "$TEST_TMP/shallow/again"
expect_match "$TEST_TMP/out" "^anchored: .*a shallow clone"
expect_exit 0 "$EVIDENT" verify --history --store "$TEST_TMP/shallow/again"
expect_match "$TEST_TMP/out" "^note: .*history cut at commit $top: a shallow clone; commits before it are not read"
expect_match "$TEST_TMP/out" "^verify: .*intact \([0-9]+ notes?\)"

# row 4: the store edited on disk and committed in a repository of its own
gitc reset -q --hard "$base"
rm -rf again
expect_exit 0 "$EVIDENT" verify
subst artifacts
(cd artifacts && git init -q . && gitc add -A . && gitc commit -qm inner) || fail "inner repo"
in=$(cd artifacts && pwd -P)
expect_exit 1 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^nested: the store holds a git repository of its own at $in: "
expect_match "$TEST_TMP/out" "^altered: .*/runs/$r\.json: differs from the commit HEAD"
# the same through a .git file naming a repository kept outside
mv artifacts/.git "$TEST_TMP/hidden.git" && echo "gitdir: $TEST_TMP/hidden.git" > artifacts/.git || fail "gitfile"
expect_exit 1 "$EVIDENT" verify
expect_match "$TEST_TMP/out" "^nested: the store holds a git repository of its own at $in: "
expect_match "$TEST_TMP/out" "^altered: .*/runs/$r\.json: differs from the commit HEAD"
# a repository in a folder between the project's root and the store
rm -f artifacts/.git
gitc checkout -q -- artifacts
mkdir -p sub && cp -a artifacts sub/st && gitc add -A sub && gitc commit -qm "sub store"
expect_exit 0 "$EVIDENT" verify --store sub/st
subst sub/st
(cd sub && git init -q . && gitc add -A . && gitc commit -qm inner) || fail "between repo"
mid=$(cd sub && pwd -P)
expect_exit 1 "$EVIDENT" verify --store sub/st
expect_match "$TEST_TMP/out" "^nested: the store holds a git repository of its own at $mid: "
expect_match "$TEST_TMP/out" "^altered: sub/st/runs/$r\.json: differs from the commit HEAD"
