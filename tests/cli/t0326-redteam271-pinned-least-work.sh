# t0326 - red team 271 row 2 (host/redteam271/README.md): where a thread
# made and joined within a launch was gone by the freeze, rules 4b/4c
# took the sample's least work as its CPU over the listed threads' CPUs
# alone; a caller pinned to one CPU in init() (its helper on another)
# read its whole CPU as one CPU's time, and red team 260's honest pinned
# twin read 1.47-1.59x the least work of the same code unpinned (3 of 3
# batches), so a candidate against such a baseline passed rule 4b at
# twice its ratio.  The least time now takes the gone floor's outside
# credit (host_clock.c, host_clock_cpu_floor_gone without its
# allowance): the two twins read the same least work.  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ "$(nproc)" -ge 2 ] || skip "one CPU: the pinned twin's helper has no other CPU"
mkrepo
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" tests/fixtures/specs/host-redteam271-pinned-least.yaml > run.out 2>&1
cat run.out
expect_match run.out "^pinned +ok"
expect_match run.out "^free +ok"
python3 - "$TEST_TMP/s" > means.out <<'PY' || fail "no work means"
import json, glob, sys
for f in glob.glob(sys.argv[1] + '/runs/*batch*.json'):
    for v in json.load(open(f)).get('variants', []):
        w = (v.get('comparison') or {}).get('work_means') or {}
        if 'ratio' in w:
            print('ratio %.3f' % w['ratio'])
PY
cat means.out
# free's least work over pinned's: the same code, 1.47-1.59 before
r=$(sed -n 's/^ratio //p' means.out)
[ -n "$r" ] || fail "the batch records no work means for free against pinned"
awk -v r="$r" 'BEGIN { exit !(r > 0.75 && r < 1.3) }' || fail "free's least work over pinned's is $r, not near 1: the pinned twin's CPU read as one CPU's time"
exit 0
