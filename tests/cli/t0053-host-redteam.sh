# The red team's host cheats of this round (tests/fixtures/adversary/host/
# redteam/README.md) against the judge: at e5a1300 each was recorded ok and
# 90x to 32845x "faster" (ship_hook computed only what was shipped,
# sample_flood spoke the protocol itself, seed_precompute read its inputs'
# seeds from its job, memo_copy hit two hot input sets, clock_hook rewrote
# the worker's clock), and fd_leak wrote through a descriptor the runner
# inherited.  Now: the caught ones get their outcome (the spec's expect:),
# the others are ok at an honest median (within a factor 3: this machine's
# noise, not 90), and nothing reaches the inherited descriptor.
. "$REPO/tests/cli/lib.sh"
runs_alone "compares the cheats' medians with the honest one's, each timed in its own moment"
mkrepo
: > "$TEST_TMP/leak"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam.yaml 9>>"$TEST_TMP/leak"
grep -q "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
[ ! -s "$TEST_TMP/leak" ] || { cat "$TEST_TMP/leak"; fail "a worker wrote through a descriptor the runner inherited"; }
h=$(grep -l '"variant": "honest"' artifacts/runs/*.json | grep -v batch | head -1)
for v in memo_copy seed_precompute clock_hook fd_leak; do
	expect_match "$TEST_TMP/out" "^$v +ok "
	r=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v batch | head -1)
	python3 - "$r" "$h" <<'P' || fail "$v's median is far below the honest one's: the cheat won"
import json, sys
m = [json.load(open(p))['timing']['stats']['median'] for p in sys.argv[1:]]
sys.exit(0 if m[0] / m[1] > 1 / 3 else 1)
P
done
