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
# are.  Since red team 36 a new thread counts when it works on through the
# next sample (crowd_work: escaped_work), not for living on asleep
# (thread_crowd's idle threads: ok; lazy_pool, an honest pool's helper in
# its keep-alive, was escaped_work when existence counted).
. "$REPO/tests/cli/lib.sh"
runs_alone "vfork_stall's wall time is held against its time limit"
mkrepo
timeout -s KILL 120 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam7.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 120 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
for v in honest uevent_ear after; do expect_match "$TEST_TMP/out" "^$v +ok"; done
expect_match "$TEST_TMP/out" "^vfork_stall +timeout"
expect_match "$TEST_TMP/out" "^crowd_work +escaped_work"
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
