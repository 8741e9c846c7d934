# Red team 25 (tests/fixtures/adversary/host/redteam25/README.md).
# leader_zero: a thread writes the done line while the leader thread sits
# in a pread of a memfd of holes into its 64 MiB scratch (a kernel-side
# copy that takes its stop only when it returns): while the leader was
# credited all the CPU it used after the parent's baselines (one day, for
# its clock's lag), ok 4 of 4 and 5.9x "faster" than its twin, which
# zeroes the scratch in launch().  Now the leader is credited at most what
# it can have run since the go and not booked: escaped_work.
# done_spin: a fini() that writes the fini and done messages itself, then
# spins past the 1 s end grace: ok while a done message exempted a worker
# from the grace's CPU test; now protocol_violation.  Red team 29's
# thp_spin, below.
# Which way leader is defeated turns on the scheduler: where the parent
# wakes for the done line only after the copy (its CPU shared with the
# leader), the copy is in the time and leader is ok but slower than its
# twin (its README's second first try: 0.779x; under load, make test
# 2026-11-29: 0.630x and 0.514x, and beside two busy loops 0.712x and
# 0.565x, 2 of 2): caught or slower (lib.sh expect_caught_or_slower).
. "$REPO/tests/cli/lib.sh"
# A CPU, not the machine (runs_alone, not runs_alone_machine): its
# fixtures start no crowd of threads (red teams 25, 29 and 30: a thread
# or two, and 4 and 3 GiB freed); the thousands of threads that loaded
# the machine past a load average of 100 are t0155's and t0156's
# (crowd256, helper256), with which this test was moved on 2026-11-29.
# Beside it (plain builds, load 2-4 from other sessions, 2026-12-01)
# t0147 passed 3 of 3 and t0090 then t0183 3 of 3, and it passed 6 of 6
# (14.0-20.4 s, 13.4-16.4 s of CPU).
runs_alone "its cheat races the parent's stop"
mkrepo
# A run killed at kill_s has hung: every job is held to its spec's
# timeout_s (2 x 120, 2 x 60, 3 x 120 and 4 x 120 s here), so that sum is
# the runner's own bound.  200 s was a bound on a loaded machine's wall
# time instead: host-redteam30-fini2 (3 GiB of small pages per variant)
# was still running at 200 s beside two busy loops and other sessions'
# tests (load 10-12, 2026-11-29: small_free's job alone took 87 s).
kill_s=600
for sp in leader grace; do
	timeout -s KILL $kill_s "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam25-$sp.yaml > "$TEST_TMP/$sp" 2>&1
	[ $? != 137 ] || fail "evident run ($sp) still ran after $kill_s s"
done
grep "UNEXPECTED" "$TEST_TMP/grace" && fail "a host-redteam25-grace variant did not get its expected outcome"
expect_match "$TEST_TMP/leader" "^twin +ok "
expect_caught_or_slower "$TEST_TMP/leader" leader escaped_work
expect_match "$TEST_TMP/grace" "^naive +ok "
# since red team 43 (a fini() computing in kernel mode, which the grace's
# user-mode rule did not see) a boxed host worker is killed at its last
# output: done_spin's fini() never runs, so it spins beside nothing: ok,
# its record says how its worker ended
expect_match "$TEST_TMP/grace" "^done_spin +ok "
f=$(grep -l '"variant": "done_spin"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$f" ] || fail "no record of done_spin"
expect_match <(jget "$f" "d['judge']['sandbox']['worker_end']") "^killed at its last output"
# red teams 29 and 30: the grace is judged by user-mode CPU, since freeing
# memory is system time (red team 28: an honest 14 GiB free was a
# violation).  An allowance by memory freed let thp_spin (4 GiB of huge
# pages) and split_spin2 (huge pages split into small mappings) spin in
# their fini(): ok; and it raced the freeing, so an honest small_free was
# a violation.  keep_spin, a spin freeing nothing, was a violation.  Since
# red team 43 none of their fini()s runs (killed at the last output): all ok
# The spinning teardowns here keep 256 MiB, not the specs' 3 and 4 GiB:
# their fini() spins to 420-500 ms of CPU whatever it frees, so a fini()
# run again is a violation under the user-CPU rule at any size, and under
# the old allowance by memory freed (0.05 s + 0.15 s a GiB) 256 MiB allows
# 0.09 s where 3 GiB allowed 0.5 s: smaller is the stricter check.  The
# honest baselines that free (thp_free, small_free) keep their full 4 and
# 3 GiB: their freeing cost is what a rule must not charge.  Touching 3 GiB
# of small pages in init (main and extra-shape workers) cost a spinning
# variant 10-35 s of CPU on this VM.
ws() { # SPEC MACRO VARIANT...: SPEC with MACRO 256 for each VARIANT, in $TEST_TMP
	local spec=$1 m=$2 out=$TEST_TMP/$(basename "$1")
	shift 2
	cp "$spec" "$out" || fail "cp $spec"
	for v in "$@"; do
		sed -i "s|^\(  $v: *{kernel: [^,]*\), expect:|\1, $m: 256, expect:|" "$out"
		grep -q "^  $v: .*, $m: 256, expect:" "$out" || fail "$v in $spec did not take $m 256"
	done
	echo "$out"
}
s29=$(ws tests/fixtures/specs/host-redteam29-fini.yaml RT29_WS_MB thp_spin keep_spin) || exit 1
s30=$(ws tests/fixtures/specs/host-redteam30-fini2.yaml RT30_WS_MB split_spin2 small_spin2 thp_spin2) || exit 1
timeout -s KILL $kill_s "$EVIDENT" run --no-progress "$s29" > "$TEST_TMP/thp" 2>&1
[ $? != 137 ] || fail "evident run (thp) still ran after $kill_s s"
grep "UNEXPECTED" "$TEST_TMP/thp" && fail "a host-redteam29-fini variant did not get its expected outcome"
expect_match "$TEST_TMP/thp" "^thp_free +ok "
expect_match "$TEST_TMP/thp" "^thp_spin +ok "
timeout -s KILL $kill_s "$EVIDENT" run --no-progress "$s30" > "$TEST_TMP/split" 2>&1
[ $? != 137 ] || fail "evident run (split) still ran after $kill_s s"
grep "UNEXPECTED" "$TEST_TMP/split" && fail "a host-redteam30-fini2 variant did not get its expected outcome"
expect_match "$TEST_TMP/split" "^small_free +ok "
expect_match "$TEST_TMP/split" "^split_spin2 +ok "
exit 0
