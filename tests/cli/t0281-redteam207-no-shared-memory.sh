# t0281 - red team 207 (tests/fixtures/adversary/host/redteam207/README.md):
# every shared anonymous mapping, shared mapping of /dev/zero and memfd is
# an inode of the kernel's internal tmpfs, numbered from one host-wide
# counter; a box moved it by mmap alone and read it in /proc/self/maps, so
# a bit crossed from box to box (8 of 8, 0 of 8) and eval promoted 6 of 6
# candidates over a reference slowed by it.  Now the host worker maps the
# parent's memory before the kernel loads and its own filter refuses every
# MAP_SHARED mmap and memfd_create; statx's mount unique id (a count of the
# host's mounts) is refused too.  noshm.c's init fails if any works.  And
# mremap with an old size of 0 (a second view of a shared mapping: red
# team 226) is refused.
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam207-noshm.yaml
expect_match "$TEST_TMP/out" "noshm: ok \(expected\)"
# and no second view of a shared mapping: mremap with an old size of 0
# (red team 226's probe logs what its box allowed)
mkdir st
EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/host-redteam226-probe.yaml
grep -rqh "shm mremap dup failed/1" st || fail "mremap(old_size 0) of the parent's shared page was not refused with EPERM: $(grep -rh 'mremap dup' st | head -1)"
