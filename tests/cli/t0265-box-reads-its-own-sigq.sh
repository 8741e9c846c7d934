# t0265: a host box reads its own count of queued signals.  Every box is
# root where the runner is, and until 2026-12-04 a box's `SigQ:` was
# root's host-wide count: red team 158's sighog heard its pool
# neighbour's timing in it (the runner's SIGSTOPs pending there), red team
# 160's sigmark moved it ~21 levels with kill() for a neighbour to read.
# Host boxes now get a user namespace of their own (sandbox.c
# push_namespaces: --unshare-user), whose count is the box's alone, and
# the runner sees that the box's user namespace is not its own
# (sandbox_userns_ok; a stand-in bubblewrap without it is refused).
# sigq_read.c goes wrong when its box reads any queued signal; here five
# are held queued outside every box while it runs.  Before: wrong_output;
# now ok.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git host/sigq_read.c specs/host-sigq-own.yaml
S=tests/fixtures/specs/host-sigq-own.yaml
# hold_queued CMD...: run CMD while this process holds 5 queued SIGRTMINs
hold_queued() {
	python3 -c '
import os, signal, subprocess, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])
for _ in range(5):
    os.kill(os.getpid(), signal.SIGRTMIN)
q = int(open("/proc/self/status").read().split("SigQ:")[1].split("/")[0])
if q < 5:
    sys.exit("SigQ %d with 5 held" % q)
sys.exit(subprocess.run(sys.argv[1:]).returncode)' "$@"
}
expect_exit 0 hold_queued "$EVIDENT" run --no-progress "$S"
B=$(ls artifacts/runs | grep -- '-batch.json$')
expect_eq "$(jget "artifacts/runs/$B" "' '.join(v['variant'] + ':' + v['outcome'] for v in d['variants'])")" \
	"naive:ok sigq:ok" "the outcomes"
R=$(ls artifacts/runs | grep -v -- '-batch.json$' | head -1)
expect_eq "$(jget "artifacts/runs/$R" "d['judge']['sandbox']['namespaces']")" "pid ipc net uts cgroup user" \
	"the box's namespaces"

# a stand-in bubblewrap that drops --unshare-user: refused, nothing recorded
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")
cat >"$TEST_TMP/bwrap-nouser" <<PY
#!/usr/bin/env python3
import os, sys
real = "$real"
PY
cat >>"$TEST_TMP/bwrap-nouser" <<'PY'
a = sys.argv[1:]
if "--" in a:
    i = a.index("--")
    a = [x for x in a[:i] if x != "--unshare-user"] + a[i:]
os.execv(real, [real] + a)
PY
chmod +x "$TEST_TMP/bwrap-nouser"
rm -rf artifacts
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-nouser expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "has no user namespace of its own"
expect_contains "$TEST_TMP/err" "use a bubblewrap that applies --unshare-user"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the box in the runner's user namespace"
exit 0
