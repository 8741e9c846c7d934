# t0307 - red team 253 rows 1 and 1b (tests/fixtures/adversary/host/
# redteam253/README.md): verify --history followed a moved store only
# where the parent had nothing at the store's new path, so a folder
# committed there first (a copy of the store's .gitignore) let a move
# carry an edit: a run's commit rewritten and the chain recomputed read
# intact.  Now a commit that changes the store is also compared with
# every folder of its parent whose record files it took out
# (store_anchor.c history_walk, store_moved_from).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git specs/tiny.yaml adversary/host/redteam249/rechain.py
RC=tests/fixtures/adversary/host/redteam249/rechain.py
gitc() { git -c user.email=t@t -c user.name=t "$@" >/dev/null || fail "git $*"; }
for i in 1 2; do "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run $i"; done
gitc add -A artifacts
gitc commit -qm runs
r=$(ls artifacts/runs | grep -v batch | tail -1); r=${r%.json}
old=$(jget "artifacts/runs/$r.json" 'd["code"]["git"]["commit"]')
[ ${#old} = 40 ] || fail "run $r recorded no commit ('$old')"
mkdir moved && cp artifacts/.gitignore moved/ || fail "the decoy folder"
gitc add moved
gitc commit -qm "prepare moved/"
gitc rm -q moved/.gitignore
gitc mv artifacts moved
python3 $RC moved sub "$r" "\"commit\": \"$old\"" "\"commit\": \"0123456789abcdef0123456789abcdef01234567\"" >/dev/null ||
	fail "rechain.py sub"
gitc add -A moved
gitc commit -qm "move and edit"
"$EVIDENT" verify --history --store moved >v.txt 2>&1 && { cat v.txt; fail "verify --history passed a move onto a committed folder that carried an edit"; }
grep -q "^rewritten: .*$r.json: modified by commit" v.txt || { cat v.txt; fail "verify --history does not name the edited record and its commit"; }
exit 0
