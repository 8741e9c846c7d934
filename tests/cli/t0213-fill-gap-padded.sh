# t0213 - the gap a host kernel sees between two samples does not name the
# next one's distribution (red team 112, tests/fixtures/adversary/host/
# redteam112/README.md): the parent's fill of the next inputs is part of
# that gap, and attention's peaked and large_scores fills cost 13-40% more
# than uniform's, so gap_dist.c (an honest kernel that logs the gap before
# each launch) read 39 of 40 stress samples above uniform's median gap at
# load 1.1.  Now every fill lasts a pad (host_clock.c gap_pad: 1.5 times
# the slowest distribution's fill, measured before the warm-up), recorded
# as timing.method.gap_pad; every gap the kernel logs is at least the pad
# (a property of the parent's clock, not of a distribution test, which a
# loaded machine would make flaky).  Before: no pad, the gaps were the
# fills themselves, under it.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed 's/samples: 120/samples: 40/; s/seeds: 4/seeds: 2/' tests/fixtures/specs/host-redteam112-gapdist.yaml > gap.yaml
"$EVIDENT" run --no-progress --only gap gap.yaml > out 2>&1 || { cat out; fail "the run"; }
expect_match out "^gap +ok "
python3 - "$EVIDENT_STORE" <<'P' || fail "the gaps"
import glob, json, os, sys, zlib
store = sys.argv[1]
def obj(h):
    b = open(os.path.join(store, 'objects', h[:2], h[2:]), 'rb').read()
    try:
        b = zlib.decompress(b)
    except Exception:
        pass
    return b.decode(errors='replace')
for f in glob.glob(os.path.join(store, 'runs', '*.json')):
    d = json.load(open(f))
    if f.endswith('-batch.json') or d['variant'] != 'gap':
        continue
    pad = d['timing']['method']['gap_pad']
    assert pad['first_us'] > 0 and pad['last_us'] >= pad['first_us'], pad
    # fills that ran past the pad are counted, not hidden (red team 121)
    assert 0 <= pad['past_cap'] <= pad['past'] and pad['grown'] <= pad['past'], pad
    assert (pad['max_over_us'] > 0) == (pad['past'] > 0), pad
    # rt112G N GAP DIST RUN SHM: the launches on the parent's shared
    # memory (SHM 1: the timed path, warm-up and timed samples), less the
    # first (after the seeds and null rounds)
    rows = [l.split() for l in obj(d['worker']['log_object']).splitlines() if l.startswith('rt112G')]
    gaps = [float(r[2]) for r in rows if r[5] == '1'][1:]
    assert len(gaps) >= 40, len(gaps)
    low = [g for g in gaps if g < 0.98 * pad['first_us']]
    assert not low, ('gaps under the pad', pad, sorted(low)[:5])
    print('pad %.0f us, %d gaps, least %.0f us' % (pad['first_us'], len(gaps), min(gaps)))
P
true
