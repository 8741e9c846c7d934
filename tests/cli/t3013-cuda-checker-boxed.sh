# t3013 - on a GPU: a CUDA run's checker runs in a box (red team 130's
# hole, what was left of it: `evident-worker __check` with the problem's
# GPU reference, problems/NAME.cu with cuBLAS, ran as the runner's user
# outside every box, loading problems/NAME.c's plug-in and the .cu
# reference from the build cache).  Now it runs in the GPU box of a trust:
# host worker (the system's software, /sys and the toolkit bound, the GPU's
# node), the plug-in and the GPU reference shown as copies, the relaxed
# filter, its first line observed as a worker's hello (t0245 on the host).
# problems/gemm.cu here checks, in its reference (which the checker calls
# for every check and for the cross-check against float64), where it runs:
# it fails unless its /proc/self/status shows a seccomp filter, and fails
# if it can create a file in the store ($EVIDENT_STORE, which a box keeps
# in its environment) or under the host's /tmp, or read a file there;
# problems/gemm.c's constructor tries the same writes.  The naive gemm,
# sealed and trust: host, is `ok` with the GPU reference cross-checked
# (cuBLAS ran in the box), the record says the checker was boxed, and no
# file was written; --unsandboxed the same reference fails (not `ok`) and
# its files are there, so the probe sees what it says.  Until the lead's
# run on an H200 (2026-12-02) this is a prediction: the GPU box is the one
# a trust: host worker runs cuBLAS in, under the relaxed filter that
# compute-sanitizer's box (stricter) runs the CUDA stack under.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git
G() { git -c user.email=t@t -c user.name=t "$@"; }
MARK=$TEST_TMP/blob
mkdir -p "$MARK" && echo secret > "$MARK/secret" || fail "mkdir"
python3 - "$MARK" <<'P' || fail "splice"
import re, sys
mark = sys.argv[1]
probe = r'''
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* t3013: where the GPU reference runs (the checker's box or not) */
static int t3013_mark(const char *who)
{
	char path[600];
	int wrote = 0, fd;
	const char *st = getenv("EVIDENT_STORE");
	snprintf(path, sizeof(path), "%s/mark-%s-%d", "@MARK@", who, (int)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0) {
		close(fd);
		wrote = 1;
	}
	if (st) {
		snprintf(path, sizeof(path), "%s/rt-mark-%s-%d", st, who, (int)getpid());
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0) {
			close(fd);
			wrote = 1;
		}
	}
	return wrote;
}
static int t3013_probe(char *err, size_t errlen)
{
	int seccomp = -1;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8))
			seccomp = atoi(line + 8);
	if (f)
		fclose(f);
	int wrote = t3013_mark("ref"), read_host = access("@MARK@/secret", R_OK) == 0;
	if (seccomp == 2 && !wrote && !read_host)
		return 0;
	snprintf(err, errlen, "t3013: the GPU reference ran outside the checker's box (Seccomp %d, wrote %d, "
		 "read the host's /tmp %d)", seccomp, wrote, read_host);
	return 1;
}
'''.replace("@MARK@", mark)
p = "problems/gemm.cu"; s = open(p).read()
s = s.replace('#include "evident_problem.h"\n', '#include "evident_problem.h"\n' + probe, 1)
old = "\t(void)scalar;\n"
assert old in s, "gemm.cu moved"
s = s.replace(old, old + "\tif (t3013_probe(err, errlen))\n\t\treturn 1;\n", 1)
open(p, "w").write(s)
ctor = r'''
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void t3013_ctor(void)
{
	char path[600];
	int fd;
	const char *st = getenv("EVIDENT_STORE");
	snprintf(path, sizeof(path), "%s/mark-plugin-%d", "@MARK@", (int)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0)
		close(fd);
	if (st) {
		snprintf(path, sizeof(path), "%s/rt-mark-plugin-%d", st, (int)getpid());
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0)
			close(fd);
	}
}
'''.replace("@MARK@", mark)
p = "problems/gemm.c"; s = open(p).read()
m = re.search(r"\nstatic int gemm_check\(", s)
assert m, "gemm.c moved"
s = s[:m.start()] + ctor + s[m.start():]
open(p, "w").write(s)
P
grep -q 't3013_probe(err, errlen)' problems/gemm.cu || fail "the probe is not in gemm.cu"
G add -A && G commit -qm t3013 || fail "commit"
cat > experiments/g.yaml <<'Y'
name: checkbox
question: Does a CUDA run's checker run in a box?
problem: gemm
backend: cuda
shape: {M: 512, N: 512, K: 512}
dtype: fp16
baseline: honest
variants:
  honest:      {kernel: kernels/gemm/naive.cu, expect: ok}
  honest_host: {kernel: kernels/gemm/naive.cu, trust: host, expect: ok}
repeats: 1
correctness: {seeds: 2}
timing: {warmup_ms: 10, samples: 20}
limits: {timeout_s: 60}
Y
G add -A && G commit -qm spec || fail "commit"

"$EVIDENT" run --no-progress experiments/g.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run failed (exit $rc): the checker's GPU box, or cuBLAS in it"; }
for v in honest honest_host; do
	grep -qE "^$v +ok " run.txt || { cat run.txt; fail "$v is not ok with its checker boxed"; }
	rec=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v batch | head -1)
	[ -n "$rec" ] || fail "no record of $v"
	jexpect "$rec" <<'E'
d["outcome"] => ok
d["judge"]["sandbox"]["checker"].startswith("boxed: the checker (evident-worker __check, the problem's plug-in and its GPU reference") => True
d["correctness"]["reference_check"]["done"] => True
E
done
left=$( (ls "$MARK" | grep -v '^secret$'; find artifacts "$EVIDENT_STORE" -name 'rt-mark-*') 2>/dev/null)
[ -z "$left" ] || fail "the problem's code wrote outside its boxes: $left"

# --unsandboxed: the same reference sees no box and says so (not ok), and
# its files are written: the probe tells a box from none
rm -rf artifacts
"$EVIDENT" run --no-progress --unsandboxed --only honest experiments/g.yaml >un.txt 2>&1
grep -qE "^honest +ok " un.txt && { cat un.txt; fail "unsandboxed, the probing reference was ok: the probe sees nothing"; }
ls "$MARK" | grep -q '^mark-ref-' || { cat un.txt; ls "$MARK"; fail "unsandboxed, the reference wrote no file under the host's /tmp"; }
exit 0
