# t0243: the box's filter is proved by what it does, not by what /proc
# says of it (red team 131's way on).  A stand-in bubblewrap that passes
# every argument but puts its own seccomp program in place of evident's
# (bwrap-ownfilter) makes a box whose /proc/self/status shows what the
# real one shows (Seccomp 2, a filter more than the runner's, NoNewPrivs
# 1), so t0241's check passes it; forkprobe.c's init() then forks.  Now
# each worker, before any kernel code loads, makes calls the box's
# program refuses (raw: a process clone, clone3, pidfd_open, a socket,
# inotify, ptrace, io_uring, perf events, ... each but the fork with
# arguments the kernel itself rejects) and reports each answer; the
# runner made the same calls under the program itself in a child of its
# own, and a box that answers otherwise where the program refuses stops
# the run (exit 6, nothing recorded), naming the tool and the calls.  An
# allow-everything program is refused, and so is one made to refuse the
# fork probe alone (EPERM, as evident's); so is the checker's box with
# the allow-everything program (its probes against the relaxed program's
# answers); the real box runs as before.
. "$REPO/tests/cli/lib.sh"
# the stand-ins are not a bubblewrap the runner can verify (sandbox_tool.c):
# let them make the boxes, as a user may, to test what the box shows
export EVIDENT_BWRAP_UNVERIFIED=1
# (copies, not links, of the stand-ins whose name picks what they do: the
# runner runs the real path of what it hashed, sandbox_tool.c)
command -v bwrap >/dev/null 2>&1 || [ -x "$(dirname "$EVIDENT")/bwrap" ] ||
	fail "bubblewrap is not installed (scripts/deps.sh installs it; make dist puts it beside evident)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
D=tests/fixtures/adversary/host/redteam131
S=tests/fixtures/specs/host-redteam131-nofilter.yaml
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")
B=$PWD/$D/bwrap-ownfilter

# an allow-everything program of the stand-in's own: refused, nothing recorded
EVIDENT_BWRAP=$B expect_exit 6 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$B' made does not refuse what its seccomp program refuses"
expect_contains "$TEST_TMP/err" "clone succeeded (the program: EPERM)"
expect_contains "$TEST_TMP/err" "socket EINVAL (the program: EAFNOSUPPORT)"
expect_contains "$TEST_TMP/err" "clone3 EINVAL (the program: ENOSYS)"
expect_contains "$TEST_TMP/err" "the worker made them before any kernel code loaded"
expect_contains "$TEST_TMP/err" "or pass --unsandboxed (the record will say so)"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the allow-everything box: $(ls artifacts/runs)"

# a program that refuses a process clone (the fork probe) and nothing else
cp "$B" "$TEST_TMP/bwrap-ownfilter-nofork" || fail "the fork-only stand-in"
EVIDENT_BWRAP=$TEST_TMP/bwrap-ownfilter-nofork expect_exit 6 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$TEST_TMP/bwrap-ownfilter-nofork' made does not refuse what its seccomp program refuses"
expect_not_contains "$TEST_TMP/err" "clone succeeded"
expect_contains "$TEST_TMP/err" "inotify_init1 EINVAL (the program: EPERM)"
expect_contains "$TEST_TMP/err" "ptrace ESRCH (the program: EPERM)"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the fork-only box: $(ls artifacts/runs)"

# the checker's box alone with the allow-everything program (the workers'
# boxes as asked): its box line's probes are compared with the relaxed
# program's answers
cp "$B" "$TEST_TMP/bwrap-ownfilter-checker" || fail "the checker-only stand-in"
EVIDENT_BWRAP=$TEST_TMP/bwrap-ownfilter-checker expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "error: the checker's box: the box that bubblewrap '$TEST_TMP/bwrap-ownfilter-checker' made does not refuse what its seccomp program refuses"
expect_contains "$TEST_TMP/err" "ptrace ESRCH (the program: EPERM)"
expect_not_contains "$TEST_TMP/err" "clone "
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded with the checker's box unfiltered: $(ls artifacts/runs)"

# the real box: fork refused (init_failed, as expected), naive ok, and the
# record says the probes were compared
expect_exit 0 "$EVIDENT" run --no-progress "$S"
for R in $(ls artifacts/runs | grep -v -- '-batch.json$'); do
	expect_match "artifacts/runs/$R" '"observed": "every worker read its own /proc/self/status .*calls its box.s program refuses'
done
BR=$(ls artifacts/runs | grep -- '-batch.json$')
expect_eq "$(jget "artifacts/runs/$BR" '[v["outcome"] for v in d["variants"]]')" "['ok', 'init_failed']" "the real box's outcomes"
