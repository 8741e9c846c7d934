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
. "$REPO/tests/cli/errata-lib.sh"
errata_setup t0337

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
