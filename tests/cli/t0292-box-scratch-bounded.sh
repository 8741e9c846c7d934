# t0292 - red team 215's lead 2 (tests/fixtures/adversary/host/redteam215/
# README.md): a host box's scratch mounts (/tmp, /var/tmp, /run) were
# tmpfs of the default size, half the RAM each, and what a box writes
# there is no process's memory the OOM score answers for.  Now /tmp is a
# quarter of the RAM and the others 64 MiB (bubblewrap --size), /dev/shm
# too, and /dev read-only (red team 218);
# tmpsize.c's init fails naming a mount over that.  Fails before:
# init_failed, "/tmp holds ... MiB, over ...".
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam215-tmpsize.yaml
expect_contains "$TEST_TMP/out" "tmpsize: ok (expected)"
