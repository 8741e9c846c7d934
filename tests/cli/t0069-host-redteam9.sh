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
mkrepo
timeout -s KILL 400 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam9.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 400 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^ring_outrun +unwritten_output"
exit 0
