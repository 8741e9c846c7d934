# t0218 - the problem plug-in is built as a kernel is: in the build box,
# in two passes, the compile shown only the repository files the first
# pass's rule names (red team 128, tests/fixtures/adversary/host/
# redteam128/README.md).  Built unboxed and in one pass, gas's `.include`
# of a file outside the repository, or an `.incbin` pasted from two
# strings past the text check reading a git-ignored file, built bytes no
# build key or record named into problems/rowsum.c's plug-in (a tolerance
# 1e4 times wider: a wrong kernel `ok` and `validated`, one key for two
# plug-ins).  Now each is refused, the reason naming the file the
# assembler read, and an honest plug-in's build says its box.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject is the problem plug-in's build"
mkrepo git adversary/host/redteam128/off.c specs/host-redteam128-probinc.yaml
G() { git -c user.email=t@t -c user.name=t "$@"; }
SPEC=tests/fixtures/specs/host-redteam128-probinc.yaml
mkdir -p "$TEST_TMP/blob" problems/rt128 || fail "mkdir"
printf '.double 1e4\n' > "$TEST_TMP/blob/tol.s"
python3 -c "import struct; open('problems/rt128/tol.bin', 'wb').write(struct.pack('<d', 1e4))" || fail "blob"
printf 'problems/rt128/\n' > .gitignore
cp problems/rowsum.c "$TEST_TMP/rowsum.c"
# splice ASM (an asm() defining rt128_scale) before rowsum_tolerance, and
# widen the fp32 tolerance by it; commit, so the tree reads clean
splice() {
	python3 - "$1" <<'P' || fail "splice"
import sys
p = "problems/rowsum.c"; s = open(p).read()
asm = sys.argv[1] + '\nextern const double rt128_scale;\n'
s = s.replace("static void rowsum_tolerance(", asm + "static void rowsum_tolerance(", 1)
s = s.replace("double v = 1e-5 * (f > 1 ? f : 1);", "double v = 1e-5 * (f > 1 ? f : 1) * rt128_scale;", 1)
open(p, "w").write(s)
P
	grep -q 'rt128_scale;$' problems/rowsum.c || fail "rowsum.c's tolerance line moved"
	G add -A && G commit -qm "$2" || fail "commit"
}
pre='__asm__(".section .rodata\n.balign 8\n.globl rt128_scale\nrt128_scale:\n'

# gas's plain .include of a file outside the repository
splice "$pre"'.include \"'"$TEST_TMP"'/blob/tol.s\"\n.previous\n");' gas
expect_exit 3 "$EVIDENT" run --dry-run --no-progress "$SPEC"
expect_contains "$TEST_TMP/err" "problem 'rowsum' does not compile: the assembler read '$TEST_TMP/blob/tol.s', which no #include names"

# a pasted .incbin of a file of the repository that git ignores
cp "$TEST_TMP/rowsum.c" problems/rowsum.c
splice "$pre"'.inc" "bin \"problems/rt128/tol.bin\"\n.previous\n");' ign
[ -z "$(git status --porcelain)" ] || fail "the tree is not clean: $(git status --porcelain)"
expect_exit 3 "$EVIDENT" run --dry-run --no-progress "$SPEC"
expect_contains "$TEST_TMP/err" "problem 'rowsum' does not compile: the assembler read 'problems/rt128/tol.bin', which no #include names"

# the honest plug-in builds, in the box, and its cache entry says so
cp "$TEST_TMP/rowsum.c" problems/rowsum.c
G add -A && G commit -qm honest || fail "commit"
expect_exit 0 "$EVIDENT" run --dry-run --no-progress "$SPEC"
box=$(python3 - <<'P'
import glob, json
for f in glob.glob("build/cache/*/info.json"):
    i = json.load(open(f))
    if i["sources"][0]["path"] == "problems/rowsum.c":
        print(i["limits"]["box"])
P
)
expect_eq "$box" "bubblewrap build box" "the rowsum plug-in's build"
exit 0
