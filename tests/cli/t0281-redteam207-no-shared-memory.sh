# t0281 - red team 207 (tests/fixtures/adversary/host/redteam207/README.md):
# every shared anonymous mapping, shared mapping of /dev/zero and memfd is
# an inode of the kernel's internal tmpfs, numbered from one host-wide
# counter; a box moved it by mmap alone and read it in /proc/self/maps, so
# a bit crossed from box to box (8 of 8, 0 of 8) and eval promoted 6 of 6
# candidates over a reference slowed by it.  Now the host worker maps the
# parent's memory before the kernel loads and its own filter refuses every
# MAP_SHARED mmap and memfd_create; statx's mount unique id (a count of the
# host's mounts) is refused too.  noshm.c's init fails if any works.
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam207-noshm.yaml
expect_match "$TEST_TMP/out" "noshm: ok \(expected\)"
