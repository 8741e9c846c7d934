# t0245 - the checker's box is observed as a worker's is, and the record
# says how the checker was boxed.  The checker (`evident-worker __check`)
# runs the problem plug-in's code: on the host backend in a host box of
# copies (t0232, t0233), on CUDA now in the GPU box of a trust: host
# worker with the plug-in and the GPU reference as copies (t3013 on a GPU;
# the box's arguments: test_sandbox test_checker_gpu_box).  Its first line
# says what its /proc/self/status shows before the problem's code loads,
# which the runner judges as a worker's hello (red team 131): a stand-in
# bubblewrap that drops `--seccomp`, or `--unshare-pid` and `--as-pid-1`,
# for the checker's box alone (the workers' boxes as asked), or that runs
# no checker at all, stops the run (exit 6) naming the checker's box, with
# nothing recorded.  The real box runs `ok` and its record's
# judge.sandbox.checker says the checker was boxed; --unsandboxed says it
# was not.
. "$REPO/tests/cli/lib.sh"
# the stand-ins are not a bubblewrap the runner can verify (sandbox_tool.c):
# let them make the boxes, as a user may, to test what the box shows
export EVIDENT_BWRAP_UNVERIFIED=1
command -v bwrap >/dev/null 2>&1 || [ -x "$(dirname "$EVIDENT")/bwrap" ] ||
	fail "bubblewrap is not installed (scripts/deps.sh installs it; make dist puts it beside evident)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")
cat > experiments/x.yaml <<'Y'
name: checkbox
question: Is the checker's box the one asked for?
problem: rowsum
backend: host
kernel: kernels/rowsum/naive.c
shape: {R: 64, C: 256}
dtype: fp32
correctness: {seeds: 2}
timing: {warmup_ms: 0, samples: 5}
limits: {timeout_s: 60}
Y
# the stand-in: the real bubblewrap for every box but the checker's, which
# it makes without what EVIDENT_T0245_MODE names
SB=$TEST_TMP/bwrap-checker
cat > "$SB" <<'P'
#!/usr/bin/env python3
import os, sys
real, mode = os.environ["EVIDENT_T0245_REAL"], os.environ.get("EVIDENT_T0245_MODE", "")
a = sys.argv[1:]
if "__check" in a:
    if mode == "norun":
        sys.exit(0)
    drop = {"noseccomp": {"--seccomp": 2}, "nopid": {"--unshare-pid": 1, "--as-pid-1": 1}}[mode]
    out, i = [], 0
    while i < len(a):
        if a[i] == "--":
            out += a[i:]
            break
        if a[i] in drop:
            i += drop[a[i]]
            continue
        out.append(a[i])
        i += 1
    a = out
os.execv(real, [real] + a)
P
chmod +x "$SB" || fail "chmod"

EVIDENT_T0245_REAL=$real EVIDENT_T0245_MODE=noseccomp EVIDENT_BWRAP=$SB expect_exit 6 "$EVIDENT" run --no-progress experiments/x.yaml
expect_contains "$TEST_TMP/err" "error: the checker's box: the box that bubblewrap '$SB' made shows no seccomp filter"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the checker's unfiltered box: $(ls artifacts/runs)"

EVIDENT_T0245_REAL=$real EVIDENT_T0245_MODE=nopid EVIDENT_BWRAP=$SB expect_exit 6 "$EVIDENT" run --no-progress experiments/x.yaml
expect_contains "$TEST_TMP/err" "error: the checker's box: the box that bubblewrap '$SB' made has no PID namespace of its own"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the checker's box without a PID namespace"

EVIDENT_T0245_REAL=$real EVIDENT_T0245_MODE=norun EVIDENT_BWRAP=$SB expect_exit 6 "$EVIDENT" run --no-progress experiments/x.yaml
expect_contains "$TEST_TMP/err" "never said what it saw of its box"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from a checker that never ran"

# the stand-in as the real one (no mode for the checker's box): ok, as the real box
EVIDENT_T0245_REAL=$real EVIDENT_BWRAP=$real expect_exit 0 "$EVIDENT" run --no-progress experiments/x.yaml
rec=$(ls artifacts/runs/*.json | grep -v batch | head -1)
jexpect "$rec" <<'E'
d["outcome"] => ok
d["judge"]["sandbox"]["checker"].startswith("boxed: the checker (evident-worker __check, the problem's plug-in) in a host box of copies") => True
"and the checker before the problem's code loaded" in d["judge"]["sandbox"]["observed"] => True
E

# --unsandboxed: no box, as the record says
rm -rf artifacts
expect_exit 0 "$EVIDENT" run --no-progress --unsandboxed experiments/x.yaml
rec=$(ls artifacts/runs/*.json | grep -v batch | head -1)
jexpect "$rec" <<'E'
d["outcome"] => ok
d["judge"]["sandbox"]["tool"] => none
"checker" in d["judge"]["sandbox"] => False
"and checker), ran with the runner's rights" in d["judge"]["sandbox"]["reason"] => True
E
exit 0
