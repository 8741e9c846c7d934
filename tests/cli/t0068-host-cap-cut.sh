# Red team 7's time-cap cut on the host backend (tests/fixtures/adversary/
# host/cap/cap_cut.c, docs/redteam7-cuda.md): cap_cut skips six of its
# first ten timed samples and makes the tenth outlast max_seconds, so a
# fixed count of 200 ends at 10 samples.  Before the late draw (30980f0)
# the checks the draw still owed were never drawn: ok in 4 of 6 runs.
# Now the parent draws them among the skipped samples it still holds:
# nearly every timed sample checked, unwritten_output, and the record
# says how many checks came late.
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/host-cap.yaml > "$TEST_TMP/out" 2>&1
grep "UNEXPECTED" "$TEST_TMP/out" && fail "cap_cut did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^cap_cut +unwritten_output"
r=$(grep -l '"variant": "cap_cut"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of cap_cut"
python3 - "$r" <<'P' || fail "cap_cut's record"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["timing"]
# 10 timed samples, those of uniform (three in four) the time
n = sum(x["n"] for x in t["by_dist"].values())
assert n == 10 and t["n"] == t["by_dist"]["uniform"]["n"] and t["method"]["capped"], (t, t["method"].get("capped"))
checked = sorted(c["sample"] for c in r["correctness"]["checks"] if c["phase"] == "timed")
# each distribution's owed checks among its skipped samples: all of a
# class's samples but where its share is smaller than its samples (a
# class of 3 samples with a share of 2), so at least 4 of the 6 skipped
assert sum(k in checked for k in range(6)) >= 4, checked
tc = r["judge"]["timed_checks"]
assert tc["late"] >= 1 and tc["asked"] == tc["received"] == len(checked), tc
P
exit 0
