# t0312 - red team 259 (host/redteam259/README.md): the problem plug-in's
# fill box wrote each sample's inputs into an unsealed memfd that the
# runner maps shared, and its filter allows ftruncate: a fill() that cut
# the memfd had the honest kernels recorded crashed (status 137, 3 of 3),
# an honest code's validated claim denied across builds (4 of 4), and a
# thread of fill()'s that cut it after the reply killed evident itself
# with SIGBUS (exit 135, 3 of 3).  Now the memfd is sealed at its size
# (problem_box.c problem_filler_start, as kexec.c seals the worker's): the
# cut fails and both kernels are ok.  And a fill box that dies mid-run any
# other way is the judge's failure, not the kernel's: reference_failed,
# "its fill() failed in its box" (outcome.c, host_clock.c prepare; a
# fill() that exits its box on its 14th call).  And the checker, which
# runs the plug-in's fill() too, gets its captures in a memfd sealed
# against writes (job.c sealed_copy): a fill() there that cuts or
# rewrites them is refused.  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam259
for mode in cut race; do
	ITERS=0 sh $D/fillcut.sh "$TEST_TMP/$mode" $mode >$mode.out 2>&1
	rc=$?
	[ $rc = 0 ] || { cat $mode.out; fail "fillcut.sh $mode: evident exit $rc (135: killed by SIGBUS)"; }
	expect_match $mode.out "^base4 +ok "
	expect_match $mode.out "^base4b +ok "
done
# the checker's captures cannot be written there: a fill() in the checker
# that could cut its fd 6 or write it through a new open of
# /proc/self/fd/6 aborts, which would make the run reference_failed;
# the checker had the runner's own read-write descriptor, and then a
# read-only one that such an open got round (red team 261's capw)
cp problems/rowsum.c rowsum.c.orig
python3 - <<'P' || fail "editing rowsum.c"
p = 'problems/rowsum.c'
t = open(p).read()
a = 'static void rowsum_fill(const long long *s, int dist, uint64_t seed, float *const *in)\n{\n'
assert t.count(a) == 1
t = t.replace(a, a + '''\t{ /* t0312: in the checker (argv names __check) its fd 6 is the captures */
\t\textern int ftruncate(int, long);
\t\textern void abort(void);
\t\tchar b[4096] = { 0 };
\t\tFILE *f = fopen("/proc/self/cmdline", "r");
\t\tsize_t n = f ? fread(b, 1, sizeof(b) - 1, f) : 0;
\t\tint check = 0;
\t\tif (f)
\t\t\tfclose(f);
\t\tfor (size_t i = 0; i + 7 <= n; i++)
\t\t\tcheck |= !memcmp(b + i, "__check", 7);
\t\textern int open(const char *, int, ...);
\t\textern long write(int, const void *, unsigned long);
\t\tint w = check ? open("/proc/self/fd/6", 02 /* O_RDWR */) : -1;
\t\tif (check && (ftruncate(6, 0) == 0 || (w >= 0 && write(w, "x", 1) == 1)))
\t\t\tabort();
\t}
''')
if '#include <stdio.h>' not in t:
    t = '#include <stdio.h>\n' + t
if '#include <string.h>' not in t:
    t = '#include <string.h>\n' + t
open(p, 'w').write(t)
P
EVIDENT_STORE=$TEST_TMP/ro "$EVIDENT" run --no-progress --only base4 tests/fixtures/specs/host-redteam259-fillcut.yaml >ro.out 2>&1
expect_match ro.out "^base4 +ok "
cp rowsum.c.orig problems/rowsum.c
# a fill() that ends its own box on its 14th call (the seeds' fills and
# the pad's come first)
python3 - <<'P' || fail "editing rowsum.c"
p = 'problems/rowsum.c'
t = open(p).read()
a = 'static void rowsum_fill(const long long *s, int dist, uint64_t seed, float *const *in)\n{\n'
assert t.count(a) == 1
t = t.replace(a, a + '''\t{ /* t0312: the fill box (argv names __fill) ends itself on its 14th fill */
\t\tstatic int calls, box = -1;
\t\textern void _exit(int);
\t\tif (box < 0) {
\t\t\tchar b[4096] = { 0 };
\t\t\tFILE *f = fopen("/proc/self/cmdline", "r");
\t\t\tsize_t n = f ? fread(b, 1, sizeof(b) - 1, f) : 0;
\t\t\tif (f)
\t\t\t\tfclose(f);
\t\t\tbox = 0;
\t\t\tfor (size_t i = 0; i + 6 <= n; i++)
\t\t\t\tbox |= !memcmp(b + i, "__fill", 6);
\t\t}
\t\tif (box && ++calls == 14)
\t\t\t_exit(3);
\t}
''')
if '#include <stdio.h>' not in t:
    t = '#include <stdio.h>\n' + t
if '#include <string.h>' not in t:
    t = '#include <string.h>\n' + t
open(p, 'w').write(t)
P
EVIDENT_STORE=$TEST_TMP/x "$EVIDENT" run --no-progress --only base4 tests/fixtures/specs/host-redteam259-fillcut.yaml >x.out 2>&1
cat x.out
expect_match x.out "^base4 +reference_failed "
"$EVIDENT" show --store "$TEST_TMP/x" latest >show.out 2>&1
grep -q "its fill() failed in its box at sample [0-9]* (the judge's side): nothing can be concluded of the kernel" show.out x.out ||
	{ cat show.out; fail "the reason does not name the fill box"; }
exit 0
