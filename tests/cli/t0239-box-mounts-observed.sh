# t0239: the box's mounts are observed, not described (red team 132, hole
# 1b).  A stand-in bubblewrap that passes every argument evident gives it,
# the strict filter included, and adds `--bind SHARE /tmp/share`
# (bwrap-hostbind) made a box whose /proc/self/status and probes read as
# the real one's; countprobe.c's init() then counted its runs in a host
# file (count 1, 2, 3 across three runs: state carried from box to box).
# Now each worker and boxed checker, before any kernel or problem code
# loads, reports its own /proc/self/mountinfo (point, type, ro/rw,
# device, root) in its hello, and the runner compares it with the mounts
# its own bubblewrap argv asked for (sandbox_mounts.c): a mount at a point
# it did not ask for, one at an asked point that is not what was asked
# (the store's empty read-only tmpfs swapped for the host's store bound
# writable: bwrap-rwbind), or a writable one where read-only was asked
# (the store's empty mask left writable: bwrap-rwmask; /dev/null bound
# writable over /proc's files in the checker's box: bwrap-chknull) stops the run (exit 6, nothing
# recorded), naming the mount.  The real box runs as before.
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
D=$PWD/tests/fixtures/adversary/host/redteam132
S=tests/fixtures/specs/host-redteam132-hostbind.yaml
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")
export RT132_REAL_BWRAP=$real
norecords() { [ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from $1: $(ls artifacts/runs)"; }

# the host's directory bound writable at /tmp/share: refused at the first
# hello, nothing recorded (a share of the test's own; the stand-in's
# environment is the box's, so a wrapper names it)
mkdir -p "$TEST_TMP/share"
printf '#!/bin/sh\nRT132_SHARE=%s exec %s "$@"\n' "$TEST_TMP/share" "$D/bwrap-hostbind" >"$TEST_TMP/bwrap-hostbind"
chmod +x "$TEST_TMP/bwrap-hostbind"
EVIDENT_BWRAP=$TEST_TMP/bwrap-hostbind expect_exit 6 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$TEST_TMP/bwrap-hostbind' made has a mount it was not asked for: /tmp/share ("
expect_contains "$TEST_TMP/err" "writable, device "
expect_contains "$TEST_TMP/err" "root $TEST_TMP/share)"
expect_contains "$TEST_TMP/err" "the worker read its own /proc/self/mountinfo before any kernel code loaded"
expect_contains "$TEST_TMP/err" "use the real bubblewrap (unset EVIDENT_BWRAP), or pass --unsandboxed (the record will say so)"
norecords "the box with the host's directory"
# and no code but evident's ran in the refused box: the worker waits
# after its hello for the runner's verdict (protocol.h), so countprobe's
# init never ran there (before, it ran before the kill: count 1)
C0=$(cat "$TEST_TMP/share/count" 2>/dev/null)
C0=${C0:-0}
[ "$C0" = 0 ] || fail "kernel code ran in the refused box: count $C0"

# the store's read-only mask swapped for the host's store bound writable
W=$(pwd -P)/artifacts
mkdir -p "$W"
cp "$D/bwrap-rwbind" "$TEST_TMP/bwrap-rwbind" || fail "the rwbind stand-in"
EVIDENT_RT132_RWDIR=$W EVIDENT_BWRAP=$TEST_TMP/bwrap-rwbind expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$TEST_TMP/bwrap-rwbind' made has a mount that is not the one asked for: $W ("
expect_contains "$TEST_TMP/err" "root $W); asked: an empty tmpfs, read-only"
norecords "the box with the store writable"

# a mount asked read-only left writable: the store's empty mask without
# its --remount-ro (a host kernel's boxes have no /proc since red team
# 267, so /dev/null over /proc's files is the checker's case, below)
cp "$D/bwrap-rwbind" "$TEST_TMP/bwrap-rwmask" || fail "the rwmask stand-in"
EVIDENT_RT132_RWDIR=$W EVIDENT_BWRAP=$TEST_TMP/bwrap-rwmask expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$TEST_TMP/bwrap-rwmask' made has a writable mount where read-only was asked: $W (tmpfs, writable, device "
norecords "the box with the store's mask writable"

# the same in the checker's box alone
cp "$D/bwrap-rwbind" "$TEST_TMP/bwrap-chknull" || fail "the chknull stand-in"
EVIDENT_BWRAP=$TEST_TMP/bwrap-chknull expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "error: the checker's box: the box that bubblewrap '$TEST_TMP/bwrap-chknull' made has a writable mount where read-only was asked: /proc/"
norecords "the checker's box with /dev/null writable over /proc"

# the real box: countprobe's init fails as expected (no count kept), naive ok
expect_exit 0 "$EVIDENT" run --no-progress "$S"
BR=$(ls artifacts/runs | grep -- '-batch.json$')
expect_eq "$(jget "artifacts/runs/$BR" '[v["outcome"] for v in d["variants"]]')" "['ok', 'init_failed']" "the real box's outcomes"
for R in $(ls artifacts/runs | grep -v -- '-batch.json$'); do
	expect_match "artifacts/runs/$R" '"observed": "every worker read its own /proc/self/status .*/proc/self/mountinfo'
done
expect_eq "$(cat "$TEST_TMP/share/count" 2>/dev/null || echo 0)" "$C0" "the share's count after the real box ran"
