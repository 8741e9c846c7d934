# t0285 - red team 210 (tests/fixtures/adversary/host/redteam210/README.md):
# get_next_ino() numbers every pipe and every procfs inode a lookup makes,
# one counter of the host's; a box moved it by pipes, by its own
# /proc/self/fd/N entries or by its threads' /proc/self/task/TID entries,
# and the next box read it, so an incumbent slowed itself whenever a box
# of its own had run before it: eval promoted copies of its code 5 of 6,
# 6 of 6 and 4 of 4.  Now a host box has no procfs (a read-only tmpfs of
# copies and /proc/self/exe) and the worker's own filter refuses pipes;
# noproc.c's init fails if any way works.  The runner reads from outside
# what the worker read of its own /proc (filter, mounts, self hash): the
# record still has the box's self hash and the run is ok.
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam210-noproc.yaml
expect_match "$TEST_TMP/out" "noproc: ok \(expected\)"
grep -rqE '"box_self_sha256": ?"[0-9a-f]{64}"' artifacts/runs || fail "no box self hash in the record"
# and red team 210's own dump: every counter it tries reads nothing
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam210-procdump.yaml
for p in 0 1 2; do
	expect_match "$TEST_TMP/out" "pipechan dump PROC $p: 0 0, after 10000 more 0"
done
