# t0343 - red team 288 row 1 (host/redteam288/README.md): the parent
# credited a host kernel's leader that slept in the sample up to
# HOST_LEAD_ROOM_SLEPT_US (200 us) of "unbooked slice" whatever its real
# one, so a leader that naps while a helper thread computes the rows and
# writes the done line, and then zeroes the next launch's accumulator in
# a pread of a hole after every done line, was ok (2 MiB: 8 of 9; 3 MiB
# here, ok on the code before: late median 1.6 us, 0 of 27 past the
# bound).  Neither the leader's schedstat nor the process CPU clock of
# another process counts a running thread's pending slice, but a thread
# off its CPU is booked and the wall bounds what it runs: the parent
# watches the leader's state from the sample's end until it is seen off
# its CPU and charges what it ran in that wall (host_clock.c
# lead_off_watch): nap3m escaped_work.  on2m (the same threads and pread,
# the done line once the pread returned: honest, a slept leader) and the
# single-threaded twin stay ok.  Also: every record's after_done says how
# many samples' leaders were seen off.  About 25 s a try.
. "$REPO/tests/cli/lib.sh"
plain_pass "the watch charges the leader only where the parent's first look comes within 100 us of the sample's end; the sanitized runner's own cost moves it past that, where the 200 us room applies as before (nap3m ok in the sanitized pass of the CI of 2026-12-07, at load 4.5)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone "its cheat races the parent's stop after each done line"
mkrepo
# nap3m is charged where the parent's first look after a sample comes
# within 100 us; where too few do, the 200 us room holds and it is ok
# (1 of 4 runs on a quiet 2-CPU VM, 2026-12-07; CI of 31d5f26de): up to
# 3 tries, escaped_work in one of them, the honest two ok in each
for try in 1 2 3; do
	rm -rf "$TEST_TMP/s"
	"$EVIDENT" run --no-progress --store "$TEST_TMP/s" tests/fixtures/specs/host-redteam288-fix.yaml > out 2>&1
	cat out
	expect_match out "^twin +ok "
	expect_match out "^on2m +ok "
	grep -qE "^nap3m +escaped_work " out && break
	[ $try = 3 ] && fail "nap3m was ok in 3 of 3 runs (its zeroing after the done line was never charged)"
done
# nap2m (about 120 us of pread CPU a sample, some of it before the end)
# is escaped_work in most runs (8 of 9 nap.sh runs at load 8-15 on the
# project's 2-CPU VM), past the 50 us bound in 17-21 of 28-32 samples:
# named, not asserted
grep -E "^nap2m " out || fail "no nap2m line"
python3 -S - "$TEST_TMP/s" <<'PY' > seen.out || fail "records unreadable"
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    r = json.load(open(f))
    a = ((r.get("timing") or {}).get("method") or {}).get("after_done")
    if a is not None:
        print(r["variant"], "seen", a.get("samples_lead_off_seen"), "poll", a.get("lead_off_poll_us"))
PY
cat seen.out
expect_match seen.out "^on2m seen [1-9][0-9]* poll 1000"
exit 0
