# t0233 - a problem plug-in's code cannot write the store or the host's
# /tmp (red team 130's probrt ctor: the plug-in's constructor ran as the
# runner's user in `evident run` and in the checker, with the store
# writable).  problems/rowsum.c here tries, in its constructor and in each
# function the runner and the checker call (check, flops, tolerance,
# extra_shape, fill, reference), to create a file in the store
# ($EVIDENT_STORE, which a box keeps in its environment) and one under
# the host's /tmp.  An honest kernel still runs `ok` (the plug-in answers
# from its boxes: the runner's description, the host clock's fill box, the
# checker's box), and no such file exists anywhere.
. "$REPO/tests/cli/lib.sh"
mkrepo
MARK=$TEST_TMP/blob
mkdir -p "$MARK" || fail "mkdir"
python3 - "$MARK" <<'P' || fail "splice"
import sys, re
p = "problems/rowsum.c"; s = open(p).read()
snip = r'''
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void rt_mark(const char *who)
{
	char path[512];
	const char *st = getenv("EVIDENT_STORE");
	snprintf(path, sizeof(path), "%s/mark-%s-%d", "@MARK@", who, (int)getpid());
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0)
		close(fd);
	if (st) {
		snprintf(path, sizeof(path), "%s/rt-mark-%s-%d", st, who, (int)getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0)
			close(fd);
	}
}
__attribute__((constructor)) static void rt_ctor(void) { rt_mark("ctor"); }
'''.replace("@MARK@", sys.argv[1])
first = re.search(r"\nstatic [a-z ]+\**rowsum_", s).start()
s = s[:first] + snip + s[first:]
for fn in ("check", "flops", "tolerance", "extra_shape", "fill", "reference"):
    m = re.search(r"\nstatic [^\n]*rowsum_%s\([^)]*\)\n\{\n" % fn, s)
    if not m:
        sys.exit("no rowsum_%s" % fn)
    s = s[:m.end()] + '\trt_mark("%s");\n' % fn + s[m.end():]
open(p, "w").write(s)
P
cat > experiments/x.yaml <<'Y'
name: plugwrite
question: Can the problem plug-in write outside its boxes?
problem: rowsum
backend: host
kernel: kernels/rowsum/naive.c
shape: {R: 64, C: 256}
dtype: fp32
correctness: {seeds: 3}
timing: {warmup_ms: 0, samples: 5}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/x.yaml
rec=$(ls artifacts/runs/*.json | grep -v batch | head -1)
jexpect "$rec" <<'E'
d["outcome"] => ok
E
left=$( (ls "$MARK"; find artifacts -name 'rt-mark-*') 2>/dev/null)
[ -z "$left" ] || fail "the plug-in wrote outside its boxes: $left"
exit 0
