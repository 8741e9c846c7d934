# The fifth red team's host cheats (tests/fixtures/adversary/host/
# redteam5/README.md).  At 100f89f: pipe_block reopened its fd 4 (the
# read end of the pipe the parent answers on) for writing through
# /proc/self/fd/4, filled the pipe and waited; the parent's next go
# blocked in write() with no time limit around it, and `evident run`
# hung until it was killed (here after 60 s: no record of pipe_block or
# of the variant after it).  Now the parent's end of that pipe is
# non-blocking: the go fails at once, a protocol violation, and the
# batch goes on.  chan_steal reopened its fd 3 (the channel's write end)
# for reading, wrote a byte and took it back a few us later: the
# parent's poll had woken for it, its blocking read() found the pipe
# empty and waited for good (at 100f89f, with 8 us here).  Now every pipe
# the parent reads a child on is non-blocking: a timeout, as for any
# silent worker.  And what the worker wrote on stderr before the kill is
# kept in its log (before, the kill dropped it).
. "$REPO/tests/cli/lib.sh"
mkrepo
timeout -s KILL 60 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam5.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "pipe_block or chan_steal: evident run still ran after 60 s (the job's limit is 3 s): the runner hung in a write to the worker or a read of it"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^pipe_block +protocol_violation"
expect_contains "$TEST_TMP/out" "pipe_block: protocol_violation - protocol violation: the worker stopped reading its go"
for v in steal3 steal6 steal10 steal16; do expect_match "$TEST_TMP/out" "^$v +timeout"; done
expect_match "$TEST_TMP/out" "^after +ok"
r=$(grep -l '"variant": "pipe_block"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of pipe_block"
# the cheat did fill the pipe, and its last words before the violation
# are in its log (they sat unread in its stderr pipe while the parent
# drove its samples, and were dropped at the kill)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/logs" 2>&1
expect_match "$TEST_TMP/logs" "pipe_block: filled the parent's pipe with [0-9]+ bytes"
