# The eleventh red team's host cheat (tests/fixtures/adversary/host/
# redteam11/README.md).  At a7fbf2b: vfork_after let the parent stop its
# clock at the done line and computed every timed sample after it, in a
# vfork's child, while the main thread (in D, waiting on the vfork) held
# off the SIGSTOP that the freeze waits for: ok, 4.7x "faster" than the
# honest kernel.  Then the worker's CPU time from the done line to its stop
# was read from its process CPU clock: escaped_work.  Since red team 17
# the parent also sends each thread its own SIGSTOP at the done line, which
# stops the vfork thread itself: protocol_violation.  Since red team 109
# a box refuses the vfork thread: unwritten_output.  The honest kernel's
# samples stay under the bound.
. "$REPO/tests/cli/lib.sh"
mkrepo
timeout -s KILL 200 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam11.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 200 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok"
# since red team 17 every thread got its own SIGSTOP at the done line and
# the freeze gave up (protocol_violation); since red team 109 a box
# refuses the vfork thread itself: the clone fails, vfork_after writes its
# done line without computing, and its rows are unwritten
expect_match "$TEST_TMP/out" "^vfork_after +unwritten_output"
# the record says what was measured: the honest kernel's samples past the
# bound are few
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "after_done in the records"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
for r in runs:
    if r["variant"] == "honest":
        a = r["timing"]["method"]["after_done"]
        # a tenth, or a quarter in a busy period (load above the CPUs: make
        # test's own at 5.9 gave 28 of 220, 2026-11-30), under the judge's
        # half there
        share = 0.25 if a.get("load_busy") else 0.1
        assert not a["escaped"] and a["samples_past_bound"] <= share * a["samples_read"], a
    else:
        assert r["outcome"] == "unwritten_output", r["outcome"]
assert len(runs) == 6, len(runs)
PY
exit 0
