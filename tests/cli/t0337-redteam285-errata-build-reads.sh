# t0337 - red team 285 rows 4a-4e (host/redteam285/README.md): the
# errata's runner code read non-code as code and code as layout.  Row 4a:
# a string literal split in two ("a b" -> "a " "b": one literal to the
# compiler, the same object) made "another runner", so the defective
# runner escaped its erratum; adjacent literals are joined now.  Row 4b:
# every path under src/ was the runner's, so a commit adding
# src/base/NOTES.txt or src/base/old/unbuilt.c (below the Makefile's
# src/*/*.c) escaped the erratum too, and (row 4c) passed as a fix; and
# scripts/runner-commit.sh called the runner dirty for an untracked
# NOTES.txt.  Now only what the build reads counts.  Row 4d: "#define
# SCALED(v)" -> "#define SCALED (v)" (function-like made object-like) was
# layout; the blank after a #define's name is code now.  Row 4e:
# src/report/ (code_identity.c, which run.c calls) was left out; it is the
# runner's code now.  The commits are made by plumbing on the runner's own
# commit (t0334's method), no build.  About 10 s.
. "$REPO/tests/cli/lib.sh"
mkrepo git specs/tiny.yaml
"$EVIDENT" --version > version.out 2>&1 || fail "evident --version"
RC=$(sed -n 's/^evident [^ ]* (commit \([0-9a-f]\{40\}\)[,)].*/\1/p' version.out)
grep -q '(commit unknown' version.out && skip "this evident was built without git: its records name no runner commit"
[ -n "$RC" ] || fail "evident --version names no build commit: $(cat version.out)"
git -C "$REPO" cat-file -e "$RC^{commit}" 2>/dev/null || skip "the runner's commit $RC is not in $REPO"
objs=$(cd "$REPO" && cd "$(git rev-parse --git-common-dir)/objects" && pwd) || fail "the evident repository's objects"
echo "$objs" >> .git/objects/info/alternates
S="$TEST_TMP/s"
expect_exit 0 "$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/tiny.yaml

# commit_with BASE PATH FILE: a commit on BASE whose PATH holds FILE's
# bytes (no ref moved, no work tree touched); its id on stdout
commit_with() {
	local blob tree
	blob=$(git hash-object -w "$3") || fail "hash-object $3"
	tree=$(GIT_INDEX_FILE="$TEST_TMP/idx" sh -c 'git read-tree "$1" && git update-index --add --cacheinfo "100644,$2,$3" &&
		git write-tree' - "$1" "$blob" "$2") || fail "a tree with $2"
	rm -f "$TEST_TMP/idx"
	git -c user.email=t@t -c user.name=t commit-tree "$tree" -p "$1" -m "t0337: $2 on $1" || fail "commit-tree"
}
# fix_of BASE: a commit on BASE that adds code the build compiles
printf 'int t0337_fix = 1;\n' > fix.c
fix_of() { commit_with "$1" src/base/t0337_fix.c fix.c; }
cat > claim.md <<'EOF2'
naive passes every check. <!-- claim: validated experiment=tiny variant=naive -->
EOF2
# audit_with NAME DEFECT FIX: the claim audited with the erratum "DEFECT FIX" (output in NAME.out)
audit_with() {
	printf '%s %s t0337: %s\n' "$2" "$3" "$1" > "errata-$1.txt"
	"$EVIDENT" audit --store "$S" --errata "errata-$1.txt" claim.md > "$1.out" 2>&1
	echo "$?" > "$1.rc"
	echo "== $1 (exit $(cat "$1.rc"))"
	cat "$1.out"
}
short() { echo "$1" | cut -c1-8; }

# row 4a: a string literal split in two is the runner's own code
git show "$RC:src/base/elf.c" > elf.c || fail "elf.c at $RC"
sed 's|xstrdup("not a 64-bit little-endian ELF file")|xstrdup("not a 64-bit " /* t0337 */ "little-endian ELF file")|' elf.c > elf-split.c
! cmp -s elf.c elf-split.c || fail "no 'not a 64-bit little-endian ELF file' in src/base/elf.c at $RC"
A=$(commit_with "$RC" src/base/elf.c elf-split.c)
audit_with split "$A" "$(fix_of "$A")"
expect_contains split.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains split.out "set aside by the errata: runner commit $(short "$A")"
# control: a literal's text changed is another runner
sed 's|xstrdup("not a 64-bit little-endian ELF file")|xstrdup("not a 64-bit " "little endian ELF file")|' elf.c > elf-text.c
T=$(commit_with "$RC" src/base/elf.c elf-text.c)
audit_with text "$T" "$(fix_of "$T")"
expect_contains text.out "claim.md:1: supported: validated tiny/naive"
expect_not_contains text.out "set aside"

# row 4b: files the build never reads make no other runner
printf 'notes, not code\n' > notes.txt
printf 'int t0337_unbuilt = 1;\n' > unbuilt.c
N=$(commit_with "$RC" src/base/NOTES.txt notes.txt)
audit_with notes "$N" "$(fix_of "$N")"
expect_contains notes.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains notes.out "set aside by the errata: runner commit $(short "$N")"
U=$(commit_with "$RC" src/base/old/unbuilt.c unbuilt.c)
audit_with unbuilt "$U" "$(fix_of "$U")"
expect_contains unbuilt.out "claim.md:1: unsupported: validated tiny/naive"
# row 4c: nor are they a fix
audit_with fakefix "$RC" "$N"
expect_eq "$(cat fakefix.rc)" 2 "an erratum fixed by a file the build never reads"
expect_contains fakefix.out "changes nothing in the runner's sources"
expect_not_contains fakefix.out "unsupported"

# row 4d: a function-like macro made object-like is code
git show "$RC:src/stats/stats.c" > stats.c || fail "stats.c at $RC"
sed 's|^#define SCALED(v) |#define SCALED (v) |' stats.c > stats-obj.c
! cmp -s stats.c stats-obj.c || fail "no '#define SCALED(v) ' in src/stats/stats.c at $RC"
M=$(commit_with "$RC" src/stats/stats.c stats-obj.c)
audit_with macrofix "$RC" "$M"
expect_contains macrofix.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains macrofix.out "set aside by the errata: runner commit $(short "$RC")"
audit_with macro "$M" "$(fix_of "$M")"
expect_contains macro.out "claim.md:1: supported: validated tiny/naive"
# control: a comment between the name and "(" is a blank (object-like too)
sed 's|^#define SCALED(v) |#define SCALED/* t0337 */ (v) |' stats.c > stats-obj2.c
M2=$(commit_with "$M" src/stats/stats.c stats-obj2.c)
audit_with macrolayout "$M" "$M2"
expect_eq "$(cat macrolayout.rc)" 2 "a comment for a blank"
expect_contains macrolayout.out "changes only comments and layout"

# row 4e: src/report/code_identity.c (run.c calls code_libs_of) is the runner's
git show "$RC:src/report/code_identity.c" > ci.c || fail "code_identity.c at $RC"
printf '\nint t0337_report = 1;\n' >> ci.c
R=$(commit_with "$RC" src/report/code_identity.c ci.c)
audit_with reportfix "$RC" "$R"
expect_contains reportfix.out "claim.md:1: unsupported: validated tiny/naive"

# row 4b's dirty check (this tree's scripts/runner-commit.sh, in a checkout
# of the runner's commit): an untracked file the build never reads is no
# dirty runner; an untracked src/<dir>/*.c is
git clone -q --shared --no-checkout "$REPO" cl || fail "clone"
git -C cl sparse-checkout set --no-cone '/scripts/' '/src/' '/kernels/' '/problems/' '/Makefile' '/mk/' ||
	fail "sparse-checkout"
git -C cl checkout -q --detach "$RC" || fail "checkout $RC"
dirty() { (cd cl && sh "$REPO/scripts/runner-commit.sh" build) | sed -n 's/^#define EVIDENT_RUNNER_DIRTY //p'; }
expect_eq "$(dirty)" 0 "the clean commit"
cp notes.txt cl/src/base/NOTES.txt
mkdir -p cl/src/base/old && cp unbuilt.c cl/src/base/old/unbuilt.c
expect_eq "$(dirty)" 0 "src/base/NOTES.txt and src/base/old/unbuilt.c, untracked"
cp unbuilt.c cl/src/base/t0337_new.c
expect_eq "$(dirty)" 1 "src/base/t0337_new.c, untracked"
rm cl/src/base/t0337_new.c
printf '/* t0337 */\n' > cl/src/base/old/t0337.h
expect_eq "$(dirty)" 1 "a header under src/, untracked"
exit 0
