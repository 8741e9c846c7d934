# The eighth red team's host cheats (tests/fixtures/adversary/host/
# redteam8/README.md).  At 04876da: in a pool (`--gpus all`, a slot per
# CPU pinned with sched_setaffinity) cpu_widen set its own mask to every
# CPU in init and ran half of each launch on the other slot's CPU, while
# its record said "cpu N".  Now a host box of a pinned runner answers
# sched_setaffinity with success and changes nothing (the slot rebuilds
# its boxes' filters after pinning): cpu_widen reads its mask back and
# finds the slot's one CPU.  (It refused with EPERM until red team 212
# found honest kernels that pin their threads init_failed so.)
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "a pool of one slot per CPU: both CPUs busy"
[ "$(nproc)" -ge 2 ] || skip "one CPU: a pool slot has nothing to widen to"
mkrepo
timeout -s KILL 120 "$EVIDENT" run --no-progress --gpus all tests/fixtures/specs/host-redteam8.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 120 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
for v in honest cpu_widen after; do expect_match "$TEST_TMP/out" "^$v +ok"; done
n=0
for r in $(grep -l '"variant": "cpu_widen"' artifacts/runs/*.json | grep -v batch); do
	n=$((n + 1))
	"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/logs" 2>&1
	expect_contains "$TEST_TMP/logs" "cpu_widen: affinity widened from 1 to 1 CPUs"
	grep -E "cpu_widen: affinity widened from 1 to ([02-9]|[1-9][0-9])" "$TEST_TMP/logs" &&
		fail "cpu_widen left its pool slot's CPU"
done
[ "$n" -ge 2 ] || fail "expected a record of cpu_widen from each slot, found $n"
exit 0
