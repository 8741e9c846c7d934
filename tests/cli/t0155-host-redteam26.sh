# Red team 26 (tests/fixtures/adversary/host/redteam26/README.md), after
# round 25's bound on the leader's credit (what it can have run since the
# go and not booked).  crowd256: 2000 idle threads made in init(); the
# parent listed them and read their baselines before it read the
# leader's, so that listing (tens of milliseconds) was the leader's room,
# and a 256 MiB kernel-side copy after the done line finished inside it:
# ok and 1.50x "faster".  Now the leader's schedstat is read first, right
# after the stops: escaped_work.  leader_nap sleeps through the sample
# (its room was the whole sample): a leader that left its CPU during the
# sample is credited at most 200 us (50 until red team 19), and since red
# team 288 its run after the sample's end is charged where the parent sees
# it off its CPU.  Its 8 MiB copy after the done line: red team 288 row 3
# found that leader_nap.h pinned the leader before it made the helper, so
# both shared one CPU and the copy held the helper's done line (ok at its
# twin's time, the copy timed); pinned as meant (the mask read before the
# first pin) it is escaped_work (2 of 2 at load 12-13, 2026-12-07), and ok
# stays accepted for a machine with one CPU; nap64 (64 MiB) is escaped_work, or ok
# and slower than its twin where the parent woke after its copy (CI,
# 2026-11-29, load 78: ok at 0.213x, 5.0 ms against 1.06 ms): either way
# its work did not go unseen, the property (lib.sh
# expect_caught_or_slower); an ok that is not slower fails.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "its cheat races the parent's stop, and its thousands of threads load the whole machine (a load average past 100): t0147, an alone test beside it, had an honest sample charged (2026-11-29)"
mkrepo
# 12 samples, not the specs' 30: each sample of crowd256 copies 256 MiB
# beside 2000 threads, and the rule needs 5 of the ~9 timing ones
for sp in crowd256 nap; do
	sed 's/samples: 30/samples: 12/' tests/fixtures/specs/host-redteam26-$sp.yaml > "$TEST_TMP/$sp.yaml" || fail "sed"
done
timeout -s KILL 300 "$EVIDENT" run --no-progress "$TEST_TMP/crowd256.yaml" > "$TEST_TMP/crowd" 2>&1
[ $? != 137 ] || fail "evident run (crowd256) still ran after 300 s"
expect_match "$TEST_TMP/crowd" "^twin +ok "
# (2000 idle threads: since red team 211 more than the runner follows,
# a protocol violation before any list is read)
expect_match "$TEST_TMP/crowd" "^crowd +protocol_violation"
expect_contains "$TEST_TMP/crowd" "more than the 512 the parent follows"
expect_caught_or_slower "$TEST_TMP/crowd" nap escaped_work
timeout -s KILL 200 "$EVIDENT" run --no-progress "$TEST_TMP/nap.yaml" > "$TEST_TMP/nap" 2>&1
[ $? != 137 ] || fail "evident run (nap) still ran after 200 s"
expect_match "$TEST_TMP/nap" "^twin +ok "
expect_match "$TEST_TMP/nap" "^nap +(ok|escaped_work) "
expect_caught_or_slower "$TEST_TMP/nap" nap64 escaped_work
exit 0
