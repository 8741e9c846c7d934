# t0290 - red team 212 row 7 (tests/fixtures/adversary/host/redteam212/
# README.md): in a pool slot pinned to its CPU (`--gpus 0,1` on the
# CPU), an honest kernel that pins its thread with
# pthread_setaffinity_np was init_failed ("Operation not permitted"):
# the box refused sched_setaffinity so that a kernel could not widen its
# mask (red team 8, t0067).  Now the call succeeds and changes nothing.
. "$REPO/tests/cli/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "one CPU: no pinned pool slot"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress --gpus 0,1 tests/fixtures/specs/host-redteam212-pin1.yaml
expect_contains "$TEST_TMP/out" "m5: ok (expected)"
