# t0232 - a problem plug-in's code runs only in a box (red team 130,
# tests/fixtures/adversary/host/redteam130/README.md, probrt): built boxed
# since red team 128, it still ran as the runner's user, `evident run`
# calling its tolerance() in its own process and the checker loading it
# unboxed.  problems/rowsum.c here multiplies its fp32 tolerance by a
# number it fopen()s from a file under /tmp at run time (1e4) and, in a
# constructor, logs every process that loads it into a file beside that
# number.  off.c is rowsum 0.05 off.  Before the fix: `ok` (9 checks pass
# at 0.05 against a tolerance 0.1) and the log named `evident run` and
# `evident-worker __check`.  Now every load is in a box of copies (no /tmp
# of the host's): the plug-in reads no 1e4, the run is wrong_output with
# the plug-in's own 1e-5 in its record, and no process wrote the log.
# Without a box the run is refused; --unsandboxed runs it unboxed, as the
# record says.
. "$REPO/tests/cli/lib.sh"
mkrepo git adversary/host/redteam130/off.c specs/host-redteam130-probrt.yaml
G() { git -c user.email=t@t -c user.name=t "$@"; }
SPEC=tests/fixtures/specs/host-redteam130-probrt.yaml
BLOB=$TEST_TMP/blob/tol.txt
mkdir -p "$TEST_TMP/blob" || fail "mkdir"
echo 1e4 > "$BLOB"
python3 - "$BLOB" <<'P' || fail "splice"
import sys
p = "problems/rowsum.c"; s = open(p).read()
snip = r'''
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static double rt130_scale(void)
{
	double v = 1.0;
	FILE *f = fopen("%s", "r");
	if (f) {
		if (fscanf(f, "%%lf", &v) != 1)
			v = 1.0;
		fclose(f);
	}
	return v;
}
__attribute__((constructor)) static void rt130_ctor(void)
{
	char cmd[200] = "";
	FILE *c = fopen("/proc/self/cmdline", "r");
	if (c) {
		size_t n = fread(cmd, 1, sizeof(cmd) - 1, c);
		for (size_t i = 0; i < n; i++)
			cmd[i] = cmd[i] ? cmd[i] : ' ';
		cmd[n] = 0;
		fclose(c);
	}
	FILE *f = fopen("%s.ctor.log", "a");
	if (f) {
		fprintf(f, "uid %%d cmd %%s\n", (int)getuid(), cmd);
		fclose(f);
	}
}
''' % (sys.argv[1], sys.argv[1])
s = s.replace("static void rowsum_tolerance(", snip + "static void rowsum_tolerance(", 1)
s = s.replace("double v = 1e-5 * (f > 1 ? f : 1);", "double v = 1e-5 * (f > 1 ? f : 1) * rt130_scale();", 1)
open(p, "w").write(s)
P
grep -q 'rt130_scale();$' problems/rowsum.c || fail "rowsum.c's tolerance line moved"
G add -A && G commit -qm probrt || fail "commit"

expect_exit 0 "$EVIDENT" run --no-progress "$SPEC"
rec=$(ls artifacts/runs/*.json | grep -v batch | head -1)
jexpect "$rec" <<'E'
d["outcome"] => wrong_output
# the plug-in's own rule, not 1e4 times it: the file under /tmp was not there for it to read
d["correctness"]["tolerance"]["atol"] => 1e-05
d["correctness"]["tolerance"]["problem"]["atol"] => 1e-05
E
[ ! -e "$BLOB.ctor.log" ] || { cat "$BLOB.ctor.log"; fail "the plug-in's constructor ran where it could write under the host's /tmp"; }

# with the file gone the run is the same: nothing it reads decides the check
rm -f "$BLOB"
expect_exit 0 "$EVIDENT" run --no-progress "$SPEC"
n=$(python3 -S -c '
import glob, json
print(sorted(json.load(open(p))["outcome"] for p in glob.glob("artifacts/runs/*.json") if "batch" not in p))')
expect_eq "$n" "['wrong_output', 'wrong_output']" "both runs"

# no box, no plug-in: refused, as a kernel is, unless --unsandboxed, which
# every record then says (and there the plug-in reads the file again)
EVIDENT_BWRAP=/nonexistent/bwrap expect_exit 3 "$EVIDENT" run --no-progress "$SPEC"
expect_contains "$TEST_TMP/err" "bubblewrap (bwrap) is not installed"
echo 1e4 > "$BLOB"
rm -rf artifacts
# (ok at the file's 1e4 before red team 286; since rowsum's secret scale
# a 0.05 offset is out even of 1e4 times the rule at small scales, so
# flaky, and since red team 291's fp32 range (2^-60 .. 2^0) mostly
# wrong_output, ok where no timed sample drew a small scale: the file's
# number is in the record either way)
"$EVIDENT" run --unsandboxed --no-progress "$SPEC" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$TEST_TMP/out" "$TEST_TMP/err"; fail "the unsandboxed run exited $rc"; }
expect_match "$TEST_TMP/out" "^off +(ok|flaky|wrong_output) "
rec=$(ls artifacts/runs/*.json | grep -v batch | head -1)
jexpect "$rec" <<'E'
abs(d["correctness"]["tolerance"]["atol"] - 0.1) < 1e-12 => True
d["judge"]["sandbox"]["tool"] => none
"the problem plug-in's" in d["judge"]["sandbox"]["reason"] => True
E
exit 0
