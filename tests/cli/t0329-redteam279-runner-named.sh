# t0329 - red team 279 rows 1 and 1b (host/redteam279/README.md): a
# record named no runner.  code.git is the repository the spec lies in
# (evident run works from the spec's repository root), so the runner from
# before red team 274's fix, started in a checkout that has the fix, wrote
# records that read as the fixed commit's, and an erratum naming that
# runner's commit set none of them aside (supported 3 of 3 stores).  Now
# every run and batch record names its runner (code.runner: the commit
# the evident binary was built from, compiled in, and the sha256 of the
# evident and evident-worker that ran), `evident show` says where that
# commit is not the checkout's, and the errata match the runner's commit
# (code.git.commit only in records without code.runner).  Here the runner
# under test runs tiny.yaml in a fresh repository of its own commit, so
# its records' runner commit (its build's HEAD, as `evident --version`
# says) differs from code.git.commit: an erratum naming the runner's
# commit (fixed in a commit made here on top of it that changes src/)
# sets its runs aside, and one naming the checkout's commit does not.
# Committed records (artifacts/) read "runner not recorded".  About 5 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v sha256sum >/dev/null 2>&1 || skip "sha256sum is not installed"
mkrepo git specs/tiny.yaml
"$EVIDENT" --version > version.out 2>&1 || fail "evident --version"
cat version.out
RC=$(sed -n 's/^evident [^ ]* (commit \([0-9a-f]\{40\}\)[,)].*/\1/p' version.out)
grep -q '(commit unknown' version.out && skip "this evident was built without git: its records name no runner commit"
[ -n "$RC" ] || fail "evident --version names no build commit: $(cat version.out)"
# the runner's commit must be in the evident repository to be errata'd there
git -C "$REPO" cat-file -e "$RC^{commit}" 2>/dev/null || skip "the runner's commit $RC is not in $REPO"
H=$(git rev-parse HEAD)
[ "$H" != "$RC" ] || fail "the fresh repository's commit is the runner's"
S="$TEST_TMP/s"
expect_exit 0 "$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/tiny.yaml
# every record names the runner: its build's commit, not the checkout's,
# and the very executables that ran
W=$(dirname "$EVIDENT")/evident-worker
[ -x "$W" ] || W=$EVIDENT
python3 -S - "$S" "$RC" "$H" "$(sha256sum < "$EVIDENT" | cut -d' ' -f1)" "$(sha256sum < "$W" | cut -d' ' -f1)" > runner.out <<'PY' || fail "the records' runner"
import glob, json, os, sys
store, rc, head, sha, wsha = sys.argv[1:]
n = 0
for f in sorted(glob.glob(os.path.join(store, "runs", "*.json"))):
    d = json.load(open(f))
    code = d["code"]
    rn = code.get("runner")
    assert rn, "%s: no code.runner" % f
    assert code["git"]["commit"] == head, (f, code["git"]["commit"])
    assert rn["commit"] == rc, (f, rn)
    assert rn["sha256"] == sha, (f, rn, sha)
    assert rn["worker_sha256"] == wsha, (f, rn, wsha)
    assert rn["dirty"] in (True, False), (f, rn)
    print(d.get("kind"), d.get("variant"), rn["commit"][:12], code["git"]["commit"][:12])
    n += 1
assert n == 3, n
PY
cat runner.out
run=$(basename "$(ls "$S"/runs/*.json | grep -v -- '-batch.json$' | head -1)" .json)
batch=$(basename "$(ls "$S"/runs/*-batch.json)" .json)
expect_exit 0 "$EVIDENT" show --store "$S" "$run"
expect_contains "$TEST_TMP/out" "  runner   evident built from commit $RC"
expect_contains "$TEST_TMP/out" "  written by runner $(echo "$RC" | cut -c1-12), not the checkout's ($(echo "$H" | cut -c1-12))"
expect_exit 0 "$EVIDENT" show --store "$S" "$batch"
expect_contains "$TEST_TMP/out" "  written by runner $(echo "$RC" | cut -c1-12), not the checkout's"
# errata: the runner's commit is made resolvable here (the evident
# repository's objects as an alternate) and "fixed" in a commit on top of
# it that adds code under src/ (made by plumbing, no ref moved); the
# checkout's commit is "fixed" likewise, in this repository
objs=$(cd "$REPO" && cd "$(git rev-parse --git-common-dir)/objects" && pwd) || fail "the evident repository's objects"
echo "$objs" >> .git/objects/info/alternates
# fixed_in BASE: a commit on BASE whose tree adds src/t0329/fix.c (C the
# Makefile's src/*/*.c compiles: red team 285 row 4b, a file the build
# never reads is no fix; red team 287 row 1b, nor is a header no file
# includes)
fixed_in() {
	local blob dir srct new root
	blob=$(printf 'int t0329_fix = 1;\n' | git hash-object -w --stdin) || fail "hash-object"
	dir=$(printf '100644 blob %s\tfix.c\n' "$blob" | git mktree) || fail "mktree src/t0329"
	srct=$(git rev-parse -q --verify "$1:src" || true)
	new=$({ [ -z "$srct" ] || git ls-tree "$srct"; printf '040000 tree %s\tt0329\n' "$dir"; } | git mktree) || fail "mktree src"
	root=$({ git ls-tree "$1" | awk -F'\t' '$2 != "src"'; printf '040000 tree %s\tsrc\n' "$new"; } | git mktree) || fail "mktree"
	git -c user.email=t@t -c user.name=t commit-tree "$root" -p "$1" -m "t0329: a fix of $1" || fail "commit-tree"
}
FR=$(fixed_in "$RC")
FH=$(fixed_in "$H")
printf '%s %s the runner under test, as a defective one\n' "$RC" "$FR" > errata-runner.txt
printf '%s %s the checkout the spec lies in\n' "$H" "$FH" > errata-checkout.txt
cat > claim.md <<'EOF'
naive passes every check. <!-- claim: validated experiment=tiny variant=naive -->
EOF
"$EVIDENT" audit --store "$S" claim.md > audit-none.out 2>&1
cat audit-none.out
expect_contains audit-none.out "claim.md:1: supported: validated tiny/naive"
# the erratum of the runner's build sets its runs aside, wherever it started
"$EVIDENT" audit --store "$S" --errata errata-runner.txt claim.md > audit-runner.out 2>&1
cat audit-runner.out
expect_contains audit-runner.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains audit-runner.out "set aside by the errata: runner commit $(echo "$RC" | cut -c1-8), fixed in $(echo "$FR" | cut -c1-8)"
# an erratum of another commit with the runner's very code (a docs-only
# commit on top of it) covers the runner too (red team 280: such a
# commit dodged an erratum naming the other alone; red team 281: matched
# by the code, not by ancestry)
Q=$(git -c user.email=t@t -c user.name=t commit-tree "$RC^{tree}" -p "$RC" -m "t0329: docs on the runner's commit") ||
	fail "commit-tree"
FQ=$(fixed_in "$Q")
printf '%s %s a defect of a commit with the runner code of the runner under test\n' "$Q" "$FQ" > errata-same.txt
"$EVIDENT" audit --store "$S" --errata errata-same.txt claim.md > audit-same.out 2>&1
cat audit-same.out
expect_contains audit-same.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains audit-same.out "set aside by the errata: runner commit $(echo "$Q" | cut -c1-8), fixed in $(echo "$FQ" | cut -c1-8)"
# and the checkout's commit is no runner of these records
"$EVIDENT" audit --store "$S" --errata errata-checkout.txt claim.md > audit-checkout.out 2>&1
cat audit-checkout.out
expect_contains audit-checkout.out "claim.md:1: supported: validated tiny/naive"
expect_not_contains audit-checkout.out "set aside"
# a committed record (written before code.runner) still reads, and says so
old=$(ls "$REPO/artifacts/runs" | grep -v -- '-batch.json$' | head -1)
if [ -n "$old" ]; then
	expect_exit 0 "$EVIDENT" show --store "$REPO/artifacts" "$(basename "$old" .json)"
	expect_contains "$TEST_TMP/out" "  runner   not recorded"
fi
exit 0
