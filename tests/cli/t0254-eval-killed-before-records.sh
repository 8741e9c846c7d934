# t0254: an eval session killed before its first run record is still a
# try of its code (red team 138: since batches take their problem's
# plug-in hash from their runs, a begun marker's key, which has none, no
# longer matched, and the killed try went uncounted: promoted at 4.009x,
# 2 of 2 faster).  killbegun.sh kills the session's process group once its
# begun marker names both sides' code, then runs the same candidate to the
# end: not promoted, the killed try counted as not faster.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v setsid >/dev/null 2>&1 || skip "setsid is not installed"
mkrepo
bash tests/fixtures/adversary/host/redteam138/killbegun.sh "$EVIDENT" "$PWD/s" "$TEST_TMP/kb" "$TEST_TMP/cache" > "$TEST_TMP/kb.out" 2>&1
cat "$TEST_TMP/kb.out" >&2
expect_contains "$TEST_TMP/kb.out" "run records before 0, now 0"
# the killed try is weighed (2 batches, 1 earlier: before, 1 and 0),
# whatever the finished batch read (under load it may read inconclusive)
expect_contains "$TEST_TMP/kb.out" "promoted False batches_of_code {'weighed': 2, "
expect_contains "$TEST_TMP/kb.out" "'earlier': 1, 'left_out_other_job': 0}"
exit 0
