# t0338 - red team 287 rows 1a and 1b (host/redteam287/README.md): the
# errata's runner code read non-code as code.  Row 1a: a group the
# preprocessor skips ("#if 0 / int f(void) { return 1; } / #endif"
# appended to src/base/elf.c: the same elf.o) made "another runner", so
# the defective runner escaped its erratum, and passed as a fix; groups
# under a literal 0 (and the #else of a literal 1, nested ones too) are
# dropped now, any other condition is kept as code.  Row 1b: a header
# under src/ that no file includes (every src/**/*.h counted) made another
# runner and passed as a fix; now a header counts where an #include of a
# counted file reaches it (resolved as the compiler does under -Isrc), and
# one reached, however deep, still does.  The commits are made by
# plumbing on the runner's own commit (errata-lib.sh), no build.  About
# 20 s.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/errata-lib.sh"
errata_setup t0338
git show "$RC:src/base/elf.c" > elf.c || fail "elf.c at $RC"
# elf_with NAME TEXT: elf.c with TEXT (printf's format) appended, in NAME.c
elf_with() { { cat elf.c; printf "$2"; } > "$1.c"; }

# row 1a: a group under #if 0 is the runner's own code
elf_with if0 '\n#if 0\nint t0338_never(void) { return 1; }\n#endif\n'
A=$(commit_with "$RC" src/base/elf.c if0.c)
audit_with if0 "$A" "$(fix_of "$A")"
expect_contains if0.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains if0.out "set aside by the errata: runner commit $(short "$A")"
audit_with if0fix "$RC" "$A"
expect_eq "$(cat if0fix.rc)" 2 "an erratum fixed by an #if 0 group"
expect_contains if0fix.out "changes only comments and layout in the runner's sources"
# nested: the #else of #if 1, and a group inside it, and #elif 0
elf_with nested '\n#if 1\n#elif 0\nint t0338_elif0;\n#else\nint t0338_else(void) { return 1; }\n#if 1\nint t0338_in;\n#endif\n#endif\n'
audit_with nestedfix "$RC" "$(commit_with "$RC" src/base/elf.c nested.c)"
expect_eq "$(cat nestedfix.rc)" 2 "an erratum fixed by the #else of #if 1"
expect_contains nestedfix.out "changes only comments and layout in the runner's sources"
# controls: a group compiled (#if 1, #elif 1 after #if 0) or not decided
# (#ifdef, #if 0L) is code: another runner, and a fix
elf_with if1 '\n#if 1\nint t0338_compiled(void) { return 1; }\n#endif\n'
elf_with elif1 '\n#if 0\n#elif 1\nint t0338_compiled(void) { return 1; }\n#endif\n'
elf_with ifdef '\n#ifdef T0338_FLAG\nint t0338_maybe(void) { return 1; }\n#endif\n'
elf_with if0L '\n#if 0L\nint t0338_maybe(void) { return 1; }\n#endif\n'
for c in if1 elif1 ifdef if0L; do
	B=$(commit_with "$RC" src/base/elf.c "$c.c")
	audit_with "$c" "$B" "$(fix_of "$B")"
	expect_contains "$c.out" "claim.md:1: supported: validated tiny/naive"
	expect_not_contains "$c.out" "set aside"
	audit_with "${c}fix" "$RC" "$B"
	expect_contains "${c}fix.out" "claim.md:1: unsupported: validated tiny/naive"
	expect_contains "${c}fix.out" "set aside by the errata: runner commit $(short "$RC")"
done

# row 1b: a header under src/ that no file includes is no runner code
printf '#ifndef T0338_UNUSED_H\n#define T0338_UNUSED_H\nint t0338_unused(void);\n#endif\n' > unused.h
H=$(commit_with "$RC" src/base/t0338_unused.h unused.h)
audit_with hdr "$H" "$(fix_of "$H")"
expect_contains hdr.out "claim.md:1: unsupported: validated tiny/naive"
expect_contains hdr.out "set aside by the errata: runner commit $(short "$H")"
audit_with hdrfix "$RC" "$H"
expect_eq "$(cat hdrfix.rc)" 2 "an erratum fixed by a header nothing includes"
expect_contains hdrfix.out "changes nothing in the runner's sources"
# controls: a header every file includes (src/base/util.h), edited, is a fix
git show "$RC:src/base/util.h" > util.h || fail "util.h at $RC"
printf 'int t0338_decl(void);\n' >> util.h
audit_with utilfix "$RC" "$(commit_with "$RC" src/base/util.h util.h)"
expect_contains utilfix.out "claim.md:1: unsupported: validated tiny/naive"
# a new header that elf.c includes ("t0338_inc.h": elf.c's own directory),
# which includes another ("../stats/t0338_deep.h"), counts at any depth;
# a header included only inside #if 0 does not
printf '#include "../stats/t0338_deep.h"\n' > inc.h
printf 'int t0338_deep(void);\n' > deep1.h
printf 'int t0338_deep(void);\nint t0338_deeper(void);\n' > deep2.h
elf_with incl '\n#include "t0338_inc.h"\n'
elf_with incl0 '\n#if 0\n#include "t0338_inc.h"\n#endif\n'
for c in incl incl0; do
	B=$(commit_with "$(commit_with "$(commit_with "$RC" src/base/elf.c "$c.c")" src/base/t0338_inc.h inc.h)" \
		src/stats/t0338_deep.h deep1.h)
	audit_with "${c}fix" "$B" "$(commit_with "$B" src/stats/t0338_deep.h deep2.h)"
done
expect_contains inclfix.out "claim.md:1: supported: validated tiny/naive"
expect_eq "$(cat inclfix.rc)" 0 "an erratum fixed in a header an #include reaches"
expect_eq "$(cat incl0fix.rc)" 2 "an erratum fixed in a header included only under #if 0"
expect_contains incl0fix.out "changes nothing in the runner's sources"
# the same header reached through -Isrc ("base/t0338_inc.h")
elf_with incli '\n#include "base/t0338_inc.h"\n'
B=$(commit_with "$(commit_with "$(commit_with "$RC" src/base/elf.c incli.c)" src/base/t0338_inc.h inc.h)" \
	src/stats/t0338_deep.h deep1.h)
audit_with inclifix "$B" "$(commit_with "$B" src/stats/t0338_deep.h deep2.h)"
expect_eq "$(cat inclifix.rc)" 0 "an erratum fixed in a header reached through -Isrc"
exit 0
