# t0289 - red team 211's read side (tests/fixtures/adversary/host/redteam211/
# README.md): every descriptor a host box is handed (stdin, stdout and
# stderr, the runner's channel at 3 and 4, its memory and job) is an
# object the runner made as the job started, whose inode number is where
# a host-wide counter (get_next_ino, the kernel's internal tmpfs) stood
# then: red team 211's incumbent read fd 3's st_ino to know whether boxes
# before it had moved the counter.  Now the worker's own filter refuses a
# stat or a copy of each; fdstat.c's init fails naming the first way that
# shows an inode (fstat, newfstatat, statx, fstatfs, dup, dup2, dup3,
# F_DUPFD, the raw calls with the descriptor's high bits set), and checks
# that a file of its own still stats.  Fails before: init_failed, "fstat
# of fd 0 shows inode 3".  And red team 211's dump reads 0 for every fd.
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam211-fdstat.yaml
expect_match "$TEST_TMP/out" "fdstat: ok \(expected\)"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam211-dump.yaml
expect_contains "$TEST_TMP/out" "taskino dump: fd3 0 fd4 0 fd6 0 fd7 0 (expected)"
