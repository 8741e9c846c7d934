# The second red team's host cheats (tests/fixtures/adversary/host/
# redteam2/README.md).  At 948f720: downgrade (the worker timed itself in
# the old protocol) 12-23x "faster" and ok, sigcont_timer (a POSIX timer's
# SIGCONT resumed the stopped worker) 9-11x, shm_truncate killed the runner
# (SIGBUS), log_flood stored a 1 GiB log, stdin_fd6 wrote to the runner's
# stdin.  Now: downgrade is a protocol violation, sigcont_timer is caught
# or ok at an honest median, the runner survives shm_truncate and records
# both variants, a flooded log is cut to RUN_KEEP_BYTES per stream, the
# runner's stdin reaches no worker, build_incbin is build_failed (t0055
# has the build box itself).
. "$REPO/tests/cli/lib.sh"
runs_alone "compares a cheat's median with the honest one's"
mkrepo
echo "the runner's stdin" > "$TEST_TMP/stdin"
cp "$TEST_TMP/stdin" "$TEST_TMP/stdin.orig"
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam2.yaml 0<>"$TEST_TMP/stdin" > "$TEST_TMP/out" 2>&1
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^downgrade +protocol_violation"
cmp -s "$TEST_TMP/stdin" "$TEST_TMP/stdin.orig" || fail "a worker wrote to the runner's standard input"
# only sigcont_timer's trick is speed; check_spy and stdin_fd6 compute
# honestly, and one repeat's median says little on a loaded machine: the
# honest time is the least median of the three that compute honestly (at
# a load of 14 honest's own read 2653 us, its fastest sample 662, and
# sigcont_timer 723 us beside stdin_fd6's 737)
hs=$(for v in honest check_spy stdin_fd6; do grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v batch | head -1; done)
for v in sigcont_timer; do
	r=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v batch | head -1)
	python3 - "$r" $hs <<'P' || fail "$v is ok at a median far below the honest ones': the cheat won"
import json, sys
a = json.load(open(sys.argv[1]))
if a['outcome'] != 'ok':
    sys.exit(0)  # caught
meds = [d['timing']['stats']['median'] for d in (json.load(open(p)) for p in sys.argv[2:]) if d['outcome'] == 'ok']
sys.exit(0 if meds and a['timing']['stats']['median'] / min(meds) > 1 / 3 else 1)
P
done
# the runner survives a worker that truncates its shared memory
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam2-crash.yaml
[ "$(grep -l '"experiment": "host-redteam2-crash"' artifacts/runs/*.json | grep -vc batch)" -eq 2 ] ||
	fail "not both variants of host-redteam2-crash were recorded"
# a flooded log is cut, and says so
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam2-runner.yaml > "$TEST_TMP/out2" 2>&1
r=$(grep -l '"variant": "log_flood"' artifacts/runs/*.json | grep -v batch | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" 2>&1
[ "$(wc -c < "$TEST_TMP/log")" -lt $((16 << 20)) ] || fail "the flooded worker log was kept whole ($(wc -c < "$TEST_TMP/log") bytes)"
expect_match "$TEST_TMP/log" "more bytes of std(out|err) were dropped"
