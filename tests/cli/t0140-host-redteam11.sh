# The eleventh red team's host cheat (tests/fixtures/adversary/host/
# redteam11/README.md).  At a7fbf2b: vfork_after let the parent stop its
# clock at the done line and computed every timed sample after it, in a
# vfork's child, while the main thread (in D, waiting on the vfork) held
# off the SIGSTOP that the freeze waits for: ok, 4.7x "faster" than the
# honest kernel.  Now the worker's CPU time from the done line to its stop
# is read from its process CPU clock: escaped_work, and the honest
# kernel's samples stay under the bound.
. "$REPO/tests/cli/lib.sh"
mkrepo
timeout -s KILL 200 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam11.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 200 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^vfork_after +escaped_work"
expect_match "$TEST_TMP/out" "computing after the done line"
# the record says what was measured: the honest kernel's samples past the
# bound are few, the cheat's are all of them
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "after_done in the records"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
for r in runs:
    a = r["timing"]["method"]["after_done"]
    if r["variant"] == "honest":
        assert not a["escaped"] and a["samples_past_bound"] <= 0.1 * a["samples_read"], a
    else:
        assert a["escaped"] and a["samples_past_bound"] > 0.9 * a["samples_read"], a
assert len(runs) == 6, len(runs)
PY
exit 0
