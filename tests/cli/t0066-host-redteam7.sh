# The seventh red team's host cheats (tests/fixtures/adversary/host/
# redteam7/README.md).  At c30b79a: uevent_ear bound a netlink uevent
# socket in its box and heard the host's device events (every other
# socket family allowed too); vfork_stall left a thread waiting in its
# vfork (state D, which SIGSTOP does not stop) 0.4 s before its time
# limit, and the freeze polled its 2 s out past the limit before calling
# it a violation; thread_crowd hid the thread each timed launch started
# behind 300 idle ones (the parent listed 256) and was recorded ok.  Now
# a host box refuses every socket, the freeze ends at the job's deadline
# (timeout), and a sample's new threads are counted however many there
# are.  Since red team 41 a thread a sample started and left working is
# recorded (escapes.host_threads: crowd_work's, which work in later
# samples), not an escape: its work runs inside later samples' timed
# windows, and an honest recycling pool has the same pattern (it was
# escaped_work 4 of 4).  Idle threads (thread_crowd) are not counted.
. "$REPO/tests/cli/lib.sh"
runs_alone "vfork_stall's wall time is held against its time limit"
mkrepo
# The spec's 3 s limit is for vfork_stall (it stalls until killed); the
# others raced it under load (thread_crowd and crowd_work timed out at
# about 3.2 s in 5 of 5 runs at load 8-10, 2026-11-29), so they run at
# 30 s and vfork_stall alone at the spec's 3 s
sed 's/timeout_s: 3}/timeout_s: 30}/; /^  vfork_stall: /d' tests/fixtures/specs/host-redteam7.yaml > "$TEST_TMP/rt7.yaml"
grep -q 'timeout_s: 30}' "$TEST_TMP/rt7.yaml" && ! grep -q '^  vfork_stall:' "$TEST_TMP/rt7.yaml" || fail "sed host-redteam7.yaml"
timeout -s KILL 300 "$EVIDENT" run --no-progress "$TEST_TMP/rt7.yaml" > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 300 s"
timeout -s KILL 120 "$EVIDENT" run --no-progress --only vfork_stall tests/fixtures/specs/host-redteam7.yaml >> "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run (vfork_stall) still ran after 120 s"
grep "UNEXPECTED" "$TEST_TMP/out" | grep -v "^  - vfork_stall: timeout - " && fail "a cheat did not get its expected outcome"
for v in honest uevent_ear after; do expect_match "$TEST_TMP/out" "^$v +ok"; done
# since red team 109 a box refuses the vfork thread it stalled with: ok;
# but the kernel still sleeps until 0.4 s before its 3 s limit by design,
# and on a loaded machine (this test beside another, and a helper's
# build: 3.3 s, 2026-12-02) its nine other samples and checks do not fit
# in those 0.4 s: a timeout at the limit, which holds what this test is
# for (the wall time check below); ok or timeout, nothing else
expect_match "$TEST_TMP/out" "^vfork_stall +(ok|timeout)"
expect_match "$TEST_TMP/out" "^crowd_work +ok"
# crowd_work's threads worked on in later samples: the record says so
r=$(grep -l '"variant": "crowd_work"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of crowd_work"
python3 -c 'import json, sys; n = json.load(open(sys.argv[1]))["timing"]["escapes"]["host_threads"]; sys.exit(0 if n >= 1 else "crowd_work: escapes.host_threads %d" % n)' "$r" || fail "crowd_work's working threads are not in its record"
expect_match "$TEST_TMP/out" "^thread_crowd +ok"
# uevent_ear's sockets: every one refused in the box
r=$(grep -l '"variant": "uevent_ear"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of uevent_ear"
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/logs" 2>&1
expect_contains "$TEST_TMP/logs" "uevent_ear: netlink uevent socket        refused"
grep "uevent_ear: .*ALLOWED" "$TEST_TMP/logs" && fail "uevent_ear: a socket was allowed in a host box"
grep "bound to the host's device events" "$TEST_TMP/logs" && fail "uevent_ear heard the host's device events"
# vfork_stall's job ended at its time limit (3 s), not a 2 s freeze later
r=$(grep -l '"variant": "vfork_stall"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of vfork_stall"
python3 -c 'import json, sys; w = json.load(open(sys.argv[1]))["wall_s"]; sys.exit(0 if w < 3 + 1.2 else "vfork_stall ran %.2f s against a 3 s limit" % w)' "$r" || fail "the freeze overran the job's time limit"
exit 0
