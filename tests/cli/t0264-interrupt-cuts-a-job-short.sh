# t0264: a stop (SIGINT) that breaks the job it interrupts still leaves a
# recorded, interrupted batch.  CI's sanitized pass of 2026-12-04 lost one
# of t0236's SIGINT'd tries whole (no run record, no batch record, only
# its begun marker): the SIGINT came as the run's first timed job started
# its problem's fill box (problem_box.c), which the stop ended before it
# answered; the job's prepare failed, job_execute returned the failure
# and the run stopped, "cannot start its fill box", exit 5 (found again
# here with strace's signal injection at that start).  Here the moment is
# deterministic: a stand-in bubblewrap sends the runner SIGINT as it is
# asked for the fill box, and fails to make it.  Before: exit 5, nothing
# recorded; now: the job is recorded aborted ("interrupted by SIGINT
# before the job could be judged"), the batch interrupted, exit 130.  The
# same failure without the SIGINT is an error, as before: exit 5, nothing
# recorded.
. "$REPO/tests/cli/lib.sh"
export EVIDENT_BWRAP_UNVERIFIED=1
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")
[ -x "$real" ] || fail "bubblewrap is not installed (scripts/deps.sh installs it)"
mkrepo
S=tests/fixtures/specs/host-redteam131-nofilter.yaml
# the runner gives bubblewrap a clean environment: the stand-in's
# settings are written into it
mk_bwrap() {
	cat <<PY
#!/usr/bin/env python3
# a stand-in bubblewrap: the real one, but a problem's fill box fails to
# start; first, where sig is set, it sends its parent (the runner) SIGINT
import os, signal, sys
real, sig = "$real", "$1"
PY
	cat <<'PY'
if "__fill" in sys.argv:
    if sig:
        os.kill(os.getppid(), signal.SIGINT)
    sys.exit(1)
os.execv(real, [real] + sys.argv[1:])
PY
}
mk_bwrap "" >"$TEST_TMP/bwrap-nofill" && chmod +x "$TEST_TMP/bwrap-nofill" || fail "the stand-in"
mk_bwrap int >"$TEST_TMP/bwrap-int" && chmod +x "$TEST_TMP/bwrap-int" || fail "the stand-in"

# without the SIGINT: an error, nothing recorded
EVIDENT_BWRAP=$TEST_TMP/bwrap-nofill expect_exit 5 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "cannot start its fill box"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded without a fill box: $(ls artifacts/runs)"
rm -rf artifacts/pending

# with it: the job cut short is recorded aborted, the batch interrupted
EVIDENT_BWRAP=$TEST_TMP/bwrap-int expect_exit 130 "$EVIDENT" run --no-progress --only naive "$S"
expect_not_contains "$TEST_TMP/err" "cannot start its fill box"
B=$(ls artifacts/runs 2>/dev/null | grep -- '-batch.json$')
[ -n "$B" ] || fail "no batch recorded: $(ls artifacts/runs 2>/dev/null; cat "$TEST_TMP/err")"
expect_eq "$(jget "artifacts/runs/$B" "d['interrupted']")" True "the batch interrupted"
R=$(ls artifacts/runs | grep -v -- '-batch.json$')
expect_eq "$(jget "artifacts/runs/$R" "d['outcome'] + ': ' + d['reason']")" \
	"aborted: interrupted by SIGINT before the job could be judged (its run was cut short)" "the job cut short"
expect_eq "$(jget "artifacts/runs/$R" "d.get('median_us')")" None "the aborted job's time"
expect_eq "$(ls artifacts/pending | grep -- .json)" "" "the begun markers left"
expect_exit 0 "$EVIDENT" verify
exit 0
