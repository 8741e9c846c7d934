# t3007 - on a GPU: a sealed kernel's planner keeps no run count across its
# own GPU boxes (red team 31, docs/redteam31-cuda.md): probes that count
# their earlier runs in the host's negative dentries under /sys (dentry),
# in a lookup's time under /usr (dtime) and in the page cache of a toolkit
# library (pagecache), and spin 30 us a counted run, time the same in
# every repeat.  Before 6d7cb19f (the GPU box bound /usr and /sys) each
# rose by 30 us a repeat on an H200 (39.7 to 189.9 us over six repeats,
# data/gpu-evidence/h200-redteam31-20261130.txt); a box of copies shows
# no host directory and no page of the host's page cache.  And red team
# 32's procdent, counting positive dentries it left in the host's /proc
# (bound into the box until 79cf5da3: 39.9 to 189.9 us, h200-redteam32-
# 20261130.txt), against its own /proc now.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 4 --only dentry --only dtime --only pagecache \
	tests/fixtures/specs/cuda-redteam31.yaml >run.txt 2>&1 || { cat run.txt; fail "the probes' run failed"; }
for v in dentry dtime pagecache scratch; do
	grep -qE "^$v +ok " run.txt || { cat run.txt; fail "$v is not ok"; }
done
"$EVIDENT" run --no-progress --repeats 4 --only procdent tests/fixtures/specs/cuda-redteam32.yaml >run32.txt 2>&1 ||
	{ cat run32.txt; fail "procdent's run failed"; }
grep -qE "^procdent +ok " run32.txt || { cat run32.txt; fail "procdent is not ok"; }
# each probe's medians by repeat: the last within 15 us of the first (a
# count of 3 earlier runs would add 90 us)
python3 - <<'P' || fail "a probe's time rose with its runs: state kept across GPU boxes"
import json, glob, collections, sys
by = collections.defaultdict(dict)
for f in glob.glob('artifacts/runs/*.json'):
    j = json.load(open(f))
    if j.get('kind') == 'batch' or j.get('outcome') != 'ok':
        continue
    by[j['variant']][j.get('repeat') or 0] = j['timing']['stats']['median']
bad = 0
for v, m in sorted(by.items()):
    r = [m[k] for k in sorted(m)]
    print(v, ' '.join('%.1f' % x for x in r))
    if len(r) < 4 or r[-1] - r[0] > 15:
        bad = 1
sys.exit(bad)
P
