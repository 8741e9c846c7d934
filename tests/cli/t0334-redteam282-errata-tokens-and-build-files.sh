# t0334 - red team 282 rows 3, 4 and 5 (host/redteam282/README.md): the
# errata's runner code.  Row 3: the code match kept the space between two
# punctuators as code, so the defective runner rebuilt with "int rc =-1;"
# for "int rc = -1;" in src/base/elf.c escaped its erratum (validated
# supported 2 of 2); the code is compared by tokens now, and a commit with
# only that layout change covers the runner under test as its own commit
# would.  Row 4: an erratum of a Makefile-only commit D set aside the
# runners built before D, whose src/ was D's (5 of 5 claims unsupported),
# and a layout-only "fix" passed as a code change: the Makefile and mk/
# are the runner's code now (comments and layout aside), so the runner
# under test is not D's runner, and a layout-only fix is refused.  Row 5:
# the runner compiles kernels/evident_kernel.h (and problems/*.h) outside
# src/: an edit there made no dirty runner (dirty 0, 3 of 3 records) and
# no other runner code; now scripts/runner-commit.sh reads those headers
# and every file the build's dependency files name, and the errata's
# runner code holds them.  The commits are made here by plumbing on the
# runner's own commit (its repository's objects as an alternate), no
# build: the runner under test's records are the runs an erratum covers
# or not.  About 10 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
. "$REPO/tests/cli/errata-lib.sh"
errata_setup t0334
"$EVIDENT" audit --store "$S" claim.md > none.out 2>&1
expect_contains none.out "claim.md:1: supported: validated tiny/naive"

# row 3: the runner's commit with one line's layout changed is its runner
git show "$RC:src/base/elf.c" > elf.c || fail "elf.c at $RC"
sed '0,/int rc = -1;/s//int rc =-1;/' elf.c > elf-layout.c
sed '0,/int rc = -1;/s//int rc = -2;/' elf.c > elf-code.c
! cmp -s elf.c elf-layout.c || fail "no 'int rc = -1;' in src/base/elf.c at $RC"
L=$(commit_with "$RC" src/base/elf.c elf-layout.c)
audit_with layout "$L" "$(fix_of "$L")"
expect_contains layout.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains layout.out "set aside by the errata: runner commit $(echo "$L" | cut -c1-8)"
# control: a change of a token there is another runner
M=$(commit_with "$RC" src/base/elf.c elf-code.c)
audit_with code "$M" "$(fix_of "$M")"
expect_contains code.out "claim.md:1: supported: validated tiny/naive"
expect_not_contains code.out "set aside"

# row 4: D, the runner's commit with a build flag in the Makefile
git show "$RC:Makefile" > Makefile.d && printf '\n# t0334: the defect\nCFLAGS += -DT0334_DEFECT=1\n' >> Makefile.d
D=$(commit_with "$RC" Makefile Makefile.d)
# a layout-only "fix" is no fix: the erratum is refused, and says why
audit_with denial "$D" "$(commit_with "$D" src/base/elf.c elf-layout.c)"
expect_eq "$(cat denial.rc)" 2 "an erratum fixed by layout alone"
expect_contains denial.out "changes only comments and layout in the runner's sources since"
expect_not_contains denial.out "unsupported"
# fixed by code, D's erratum does not reach the runner built before D
audit_with makefile "$D" "$(fix_of "$D")"
expect_contains makefile.out "claim.md:1: supported: validated tiny/naive"
expect_not_contains makefile.out "set aside"
# a comment (and blank lines) in the Makefile make no other runner
git show "$RC:Makefile" > Makefile.c && printf '\n\n# t0334: a comment\n\n' >> Makefile.c
C=$(commit_with "$RC" Makefile Makefile.c)
audit_with mkcomment "$C" "$(fix_of "$C")"
expect_contains mkcomment.out "claim.md:1: unsupported: validated tiny/naive"

# row 5: the runner's commit with kernels/evident_kernel.h changed is
# another runner, and a fix there is a fix
git show "$RC:kernels/evident_kernel.h" > hdr.h || fail "kernels/evident_kernel.h at $RC"
sed 's|^\tsize_t workspace_bytes;$|\tsize_t workspace_bytes;\n\tint64_t t0334_local;|' hdr.h > hdr-edit.h
! cmp -s hdr.h hdr-edit.h || fail "no workspace_bytes in kernels/evident_kernel.h at $RC"
H=$(commit_with "$RC" kernels/evident_kernel.h hdr-edit.h)
audit_with header "$H" "$(fix_of "$H")"
expect_contains header.out "claim.md:1: supported: validated tiny/naive"
expect_not_contains header.out "set aside"
audit_with hdrfix "$RC" "$H"
expect_contains hdrfix.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains hdrfix.out "set aside by the errata: runner commit $(echo "$RC" | cut -c1-8)"
# and the runner's commit's dirty check sees that header edited, and any
# file the build's dependency files name (a sparse checkout of the
# runner's commit: the script and what it reads)
git clone -q --shared --no-checkout "$REPO" cl || fail "clone"
git -C cl sparse-checkout set --no-cone '/scripts/' '/src/' '/kernels/' '/problems/' '/Makefile' '/mk/' '/README.md' ||
	fail "sparse-checkout"
git -C cl checkout -q --detach "$RC" || fail "checkout $RC"
dirty() { (cd cl && sh scripts/runner-commit.sh "$@") | sed -n 's/^#define EVIDENT_RUNNER_DIRTY //p'; }
expect_eq "$(dirty build)" 0 "the clean commit"
cp hdr-edit.h cl/kernels/evident_kernel.h
expect_eq "$(dirty build)" 1 "kernels/evident_kernel.h edited"
git -C cl checkout -q -- kernels/evident_kernel.h
expect_eq "$(dirty build)" 0 "the header restored"
mkdir -p cl/build/obj/t && printf 'build/obj/t/t.o: src/t/t.c README.md\nREADME.md:\n' > cl/build/obj/t/t.d
echo "t0334" >> cl/README.md
expect_eq "$(dirty build)" 1 "a file the dependency files name, edited"
expect_eq "$(dirty)" 0 "the same without the build's dependency files"
exit 0
