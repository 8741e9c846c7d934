# The sixth red team's host cheats (tests/fixtures/adversary/host/
# redteam6/README.md).  At 4015568: zombie_lead ended its worker's main
# thread with SYS_exit at its first timed launch (a thread of its own
# spoke the rest of the protocol, every launch computed), so the box's
# pid 1 was a zombie leader whose wchan reads "0" for good.  The freeze
# took that for a thread still on the CPU, waited 0.2 s out three times
# and then muted its off-CPU rule in a static: every later variant of the
# runner (here honest, gap_probe6 and after; strace saw no wchan read of
# theirs) was frozen by the old two-readings rule.  Now a dead thread is
# off the CPU, and the mute is the worker's own: every variant's record
# says how its freezes were settled (timing.method.freezes), and those
# after zombie_lead are settled by the off-CPU rule as before it.
# gap_probe6 tries the syscalls the host profile does not name (it
# held: ok, each try refused or harmless).
. "$REPO/tests/cli/lib.sh"
mkrepo
# at a 30 s job limit, not the spec's 5 s: no variant here hangs, and the
# same honest attention (redteam5's shape and samples) took 2.88 s of its
# 3 s there in make test at load 13.4 (t0064), a race the outcomes here
# should not run
sed 's/timeout_s: 5}/timeout_s: 30}/' tests/fixtures/specs/host-redteam6.yaml > experiments/rt6.yaml
grep -q 'timeout_s: 30}' experiments/rt6.yaml || fail "sed host-redteam6.yaml"
# two repeats: the order is the batch's own draw (not the spec's seed,
# since red team 89), and a second repeat puts every variant after
# zombie_lead's first run in the same runner
timeout -s KILL 120 "$EVIDENT" run --no-progress --repeats 2 experiments/rt6.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 120 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
for v in honest zombie_lead gap_probe6 after; do expect_match "$TEST_TMP/out" "^$v +ok"; done
# how each variant's freezes were settled, in the order the batch ran them
python3 - artifacts/runs/*.json > "$TEST_TMP/freezes" <<'PY' || fail "cannot read the records: $(cat "$TEST_TMP/freezes")"
import json, sys
rows = []
for f in sys.argv[1:]:
    d = json.load(open(f))
    if "variant" not in d or "timing" not in d:
        continue
    fz = (d["timing"].get("method") or {}).get("freezes")
    rows.append((d["started_utc"], d["variant"], fz))
for s, v, fz in sorted(rows):
    print(v, "none" if fz is None else "%d %d" % (fz["off_cpu"], fz["run_time_twice"]))
PY
cat "$TEST_TMP/freezes"
# some variant ran after zombie_lead's first run in this runner (always,
# with two repeats: every variant of the second)
awk '$1 == "zombie_lead" { z = 1; next } z && $1 != "zombie_lead" { n++ } END { exit !(n > 0) }' "$TEST_TMP/freezes" ||
	fail "no variant ran after zombie_lead"
grep -q " none$" "$TEST_TMP/freezes" && fail "a record does not say how its freezes were settled (timing.method.freezes)"
# every variant, the cheat's own and those after it: settled by the
# off-CPU rule (at 4015568 the zombie leader muted it for all of them)
while read -r v off twice; do
	[ "$off" -gt "$twice" ] || fail "$v: $off freezes settled off the CPU, $twice by two readings alone: the off-CPU rule was muted"
done < "$TEST_TMP/freezes"
r=$(grep -l '"variant": "zombie_lead"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of zombie_lead"
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/logs" 2>&1
expect_contains "$TEST_TMP/logs" "zombie_lead: the protocol is a thread's; the main thread ends"
