# t0306 - red team 253 rows 3 and 3b (tests/fixtures/adversary/host/
# redteam253/README.md): a store's records are bytes, never text.  An
# honest store in a project whose .gitattributes says `* text=auto`, with
# one kernel source saved with CRLF line ends, was "altered" under
# verify's anchor once committed (git normalized the object's blob to
# LF), and a clone with core.autocrlf=true read 40 problems.  The store
# writes a .gitattributes of its own beside its .gitignore ("* -text
# -filter"), so git keeps every record byte for byte whatever the
# project's attributes or the clone's settings.
. "$REPO/tests/cli/lib.sh"
mkrepo git specs/tiny.yaml
gitc() { git -c user.email=t@t -c user.name=t "$@" >/dev/null || fail "git $*"; }
sed 's/$/\r/' kernels/host/attn_blocked.c > kernels/host/attn_blocked_crlf.c
sed 's#attn_blocked.c#attn_blocked_crlf.c#' tests/fixtures/specs/tiny.yaml > tests/fixtures/specs/tiny_crlf.yaml
printf '* text=auto\n' > .gitattributes
gitc add -A
gitc commit -qm crlf
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny_crlf.yaml >run.txt 2>&1 || { cat run.txt; fail "the run failed"; }
[ -f artifacts/.gitattributes ] || fail "the store wrote no .gitattributes"
grep -q -- "-text" artifacts/.gitattributes || fail "the store's .gitattributes does not unset text"
gitc add -A artifacts
gitc commit -qm runs
"$EVIDENT" verify --history --store artifacts >v1.txt 2>&1 || { cat v1.txt; fail "verify --history of the committed store failed (text=auto converted a record)"; }
git clone -q "file://$PWD" clone || fail "git clone"
"$EVIDENT" verify --history --store clone/artifacts >v2.txt 2>&1 || { cat v2.txt; fail "verify --history in a fresh clone failed"; }
git clone -q -c core.autocrlf=true "file://$PWD" crlfclone || fail "git clone -c core.autocrlf=true"
"$EVIDENT" verify --history --store crlfclone/artifacts >v3.txt 2>&1 || { cat v3.txt; fail "verify --history in a core.autocrlf=true clone failed"; }
exit 0
