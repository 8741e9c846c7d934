# A host kernel cannot time itself: clock_hook rewrites the worker
# process's clock_gettime (the runner binary's GOT slot) to run 100x slow.
# A worker that timed its own launches recorded it ok and 96x "faster"
# (e5a1300, this machine).  The parent times every sample from outside the
# kernel's process (src/run/host_clock.c), draws each sample's inputs and
# checks, and the record says so: clock_hook is ok at a median above a
# tenth of the honest kernel's (a believed clock puts it near 1/96).  Only
# that side is the cheat's, and with room for the load: one repeat a side
# beside two busy loops read clock_hook at 3.13x the honest median
# (2026-11-29), which the old bound (within a factor 3 either way) failed;
# the same noise the other way would have failed its lower side.
. "$REPO/tests/cli/lib.sh"
runs_alone "compares two variants' medians, each timed in its own moment"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-clock.yaml
expect_match "$TEST_TMP/out" "^clock_hook +ok "
r=$(grep -l '"variant": "clock_hook"' artifacts/runs/*.json | grep -v batch | head -1)
h=$(grep -l '"variant": "honest"' artifacts/runs/*.json | grep -v batch | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" || fail "show --log"
expect_match "$TEST_TMP/log" "clock_hook: [1-9][0-9]* slot\(s\) of clock_gettime patched"
expect_eq "$(jget "$r" "d['timing']['method']['clock']")" "parent" "the parent's clock"
ratio=$(python3 - "$r" "$h" <<'P'
import json, sys
m = [json.load(open(p))['timing']['stats']['median'] for p in sys.argv[1:]]
print(m[0] / m[1])
P
) || fail "medians"
python3 -c "import sys; r=float(sys.argv[1]); sys.exit(0 if r > 1/10 else 1)" "$ratio" ||
	fail "clock_hook's median is $ratio x the honest one's: its own clock was believed"
# every timed sample had inputs of its own: no two checked samples share a seed
python3 - "$r" <<'P' || fail "timed checks share inputs"
import json, sys
d = json.load(open(sys.argv[1]))
seeds = [c['seed'] for c in d['correctness']['checks'] if c['phase'] == 'timed']
assert len(seeds) >= 2 and len(set(seeds)) == len(seeds), seeds
j = d['judge']['timed_checks']
assert j['asked'] == j['received'] == len(seeds), j
# each distribution drawn at the sample; the checks cover every one the
# samples had (red team 10), whatever the draw gave each (red team 13)
dists = {c['dist'] for c in d['correctness']['checks'] if c['phase'] == 'timed'}
had = {k for k, x in d['timing']['by_dist'].items() if x['n'] > 0}
assert 'uniform' in had and dists == had, (dists, had)
# where the job's time went besides its worker
assert 0 < d['judge']['checker_seconds'] < d['wall_s'], d['judge']
P
