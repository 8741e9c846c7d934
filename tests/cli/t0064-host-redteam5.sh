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
# Both cheats reopen a descriptor through /proc/self/fd, and no box of a
# host kernel has a procfs since red team 267: boxed they cannot act (ok,
# and each says why in its log), so the runner's pipes are tested
# --unsandboxed, where the reopen works.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed 's/timeout_s: 3}/timeout_s: 30}/; /^  steal[0-9]*: /d' tests/fixtures/specs/host-redteam5.yaml > experiments/rt5.yaml
grep -q 'timeout_s: 30}' experiments/rt5.yaml && ! grep -q '^  steal' experiments/rt5.yaml || fail "sed host-redteam5.yaml"
timeout -s KILL 60 "$EVIDENT" run --no-progress --unsandboxed experiments/rt5.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "pipe_block: evident run still ran after 60 s: the runner hung in a write to the worker"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "pipe_block did not get its expected outcome"
expect_match "$TEST_TMP/out" "^pipe_block +protocol_violation"
expect_match "$TEST_TMP/out" "pipe_block: protocol_violation - (at the extra shape [^:]*: )?protocol violation: (the worker stopped reading its go|unknown message 'd')"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^after +ok"
# the steals (their baseline, honest, comes along at 3 s, not judged here)
timeout -s KILL 60 "$EVIDENT" run --no-progress --unsandboxed --only steal3 --only steal6 --only steal10 --only steal16 \
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
expect_match "$TEST_TMP/logs" "pipe_block: filled the parent's pipe with [0-9]+ bytes"
# boxed: no /proc/self/fd to reopen, so both compute honestly
sed 's/timeout_s: 3}/timeout_s: 30}/' tests/fixtures/specs/host-redteam5.yaml > experiments/rt5box.yaml
"$EVIDENT" run --no-progress --store boxed --only pipe_block --only steal3 experiments/rt5box.yaml > "$TEST_TMP/boxed" 2>&1
expect_match "$TEST_TMP/boxed" "^pipe_block +ok"
expect_match "$TEST_TMP/boxed" "^steal3 +ok"
: > "$TEST_TMP/boxed-logs"
for r in $(ls boxed/runs | grep -v -- '-batch.json$'); do
	"$EVIDENT" show --store boxed --log "$(basename "$r" .json)" >> "$TEST_TMP/boxed-logs" 2>&1
done
expect_contains "$TEST_TMP/boxed-logs" "pipe_block: cannot reopen fd 4 for writing: No such file or directory"
expect_contains "$TEST_TMP/boxed-logs" "chan_steal: cannot reopen fd 3 for reading: No such file or directory"
expect_not_contains "$TEST_TMP/boxed-logs" "took the byte back"
