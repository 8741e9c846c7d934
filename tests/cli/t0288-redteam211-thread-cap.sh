# t0288 - red team 211 (tests/fixtures/adversary/host/redteam211/README.md):
# the host box makes no get_next_ino() inode since red team 210, but the
# runner did: each of a worker's threads it listed in /proc/PID/task took
# one, and a box reads the counter in its inherited pipes' st_ino, so an
# incumbent that parked thousands of threads in init set a bit for its
# next box and eval promoted copies of its code 4 of 16.  Now a worker
# with more threads than the runner follows (4 a CPU online, at least
# 512) is a protocol violation named so, read from /proc/PID/status alone;
# 200 threads are timed as before.
. "$REPO/tests/cli/lib.sh"
[ "$(nproc)" -le 128 ] || skip "more than 128 CPUs: the cap is above 2000 threads here"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam211-cap.yaml > "$TEST_TMP/out" 2>&1 ||
	fail "the spec's expects did not hold: $(tail -8 "$TEST_TMP/out")"
expect_match "$TEST_TMP/out" "^few +ok"
expect_match "$TEST_TMP/out" "^many +protocol_violation"
expect_contains "$TEST_TMP/out" "more than the 512 the parent follows"
# past the cap mid-run (later.c: 700 threads started in a timed launch):
# the same rule named, not "could not be stopped after a sample"
expect_match "$TEST_TMP/out" "^later +protocol_violation"
expect_contains "$TEST_TMP/out" "later: protocol_violation - protocol violation: the worker has 701 threads, more than the 512"
