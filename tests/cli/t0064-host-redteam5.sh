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
# The spec's 3 s limit is for the steal variants (silent until killed),
# and it raced the honest ones: in make test (2026-11-29, load 13.4)
# `after` was killed at 3.0 s with 7 samples reported, timeout (its twin
# `honest` took 2.88 s; 0.5 s on a quiet machine).  So pipe_block runs
# between the honest two at 30 s, and the steals at the spec's 3 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed 's/timeout_s: 3}/timeout_s: 30}/; /^  steal[0-9]*: /d' tests/fixtures/specs/host-redteam5.yaml > experiments/rt5.yaml
grep -q 'timeout_s: 30}' experiments/rt5.yaml && ! grep -q '^  steal' experiments/rt5.yaml || fail "sed host-redteam5.yaml"
timeout -s KILL 60 "$EVIDENT" run --no-progress experiments/rt5.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "pipe_block: evident run still ran after 60 s: the runner hung in a write to the worker"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "pipe_block did not get its expected outcome"
expect_match "$TEST_TMP/out" "^pipe_block +protocol_violation"
# (since red team 210 a host box has no /proc: fd 4 cannot be reopened
# for writing at all, and the cheat's own protocol is what is violated)
expect_match "$TEST_TMP/out" "pipe_block: protocol_violation - (at the extra shape [^:]*: )?protocol violation: (the worker stopped reading its go|unknown message 'd')"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^after +ok"
# the steals (their baseline, honest, comes along at 3 s, not judged here)
timeout -s KILL 60 "$EVIDENT" run --no-progress --only steal3 --only steal6 --only steal10 --only steal16 \
	tests/fixtures/specs/host-redteam5.yaml > "$TEST_TMP/steal" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "chan_steal: evident run still ran after 60 s (the job's limit is 3 s): the runner hung in a read of the worker"
grep "UNEXPECTED" "$TEST_TMP/steal" && fail "a chan_steal variant did not get its expected outcome"
for v in steal3 steal6 steal10 steal16; do expect_match "$TEST_TMP/steal" "^$v +timeout"; done
r=$(grep -l '"variant": "pipe_block"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of pipe_block"
# the cheat did fill the pipe, and its last words before the violation
# are in its log (they sat unread in its stderr pipe while the parent
# drove its samples, and were dropped at the kill)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/logs" 2>&1
expect_match "$TEST_TMP/logs" "pipe_block: (filled the parent's pipe with [0-9]+ bytes|cannot reopen fd 4 for writing: No such file or directory)"
