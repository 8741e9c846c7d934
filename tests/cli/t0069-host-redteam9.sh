# The ninth red team's host cheat (tests/fixtures/adversary/host/
# redteam9/README.md).  At 2fdcbbf: ring_outrun skipped 80 timed samples
# of a fixed count of 5000 (16 MiB frames: a spill ring of 64), computed
# 66 more and ended the run at the time cap; the late draw found only
# honest frames, and it was ok with the median of its wrong samples.  Now
# a skipped frame leaving the ring is checked with chance want / (i +
# ring + 1): it must be unwritten_output.
. "$REPO/tests/cli/lib.sh"
# Not run alone: what it checks holds under load too (a slower run ends
# at the cap before the ring is outrun, and the late draw finds the
# wrong frames; a faster one has them checked as they leave the ring).
# The spec's time cap (max_seconds 12) as 4 s here: the honest baseline
# computes until the cap (5000 samples of 27 ms), 12 s of its CPU, where
# ring_outrun's 146 samples take under 3 s alone (its sample 145 sleeps
# 12.5 s, past either cap).  The run still outruns the 64-frame ring
# (its first 80 samples return at once), so job.c evict_check runs
# here (test_protocol's test_evicted_frame_kept keeps a picked frame,
# protocol.c proto_stash_slot, whatever this run's draws).  Alone,
# 2026-12-01 (plain): 13.1 s of CPU, ring_outrun 3 frames checked as they
# left the ring; 24.9 s with the cap at 12 (8 of them).
mkrepo
sed 's/max_seconds: 12,/max_seconds: 4,/' tests/fixtures/specs/host-redteam9.yaml > "$TEST_TMP/rt9.yaml"
grep -q 'max_seconds: 4,' "$TEST_TMP/rt9.yaml" || fail "the cap did not go into the spec"
timeout -s KILL 400 "$EVIDENT" run --no-progress "$TEST_TMP/rt9.yaml" > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 400 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^ring_outrun +unwritten_output"
exit 0
