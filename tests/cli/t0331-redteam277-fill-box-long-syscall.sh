# t0331 - red team 277 row 2 (host/redteam277/README.md): a problem
# plug-in's fill box thread that makes one long system call a fill
# (madvise(MADV_POPULATE_WRITE) over hundreds of MiB) takes its SIGSTOP
# only when the call returns; filler_pause waited 50 ms for the box to
# show stopped and then went on to time samples beside it (34 ms to 5.8 s
# of the box's CPU outside its fills in 36 of 36 runs, an honest pair's
# work ratio 1.51-2.60 against 2.67-2.98).  Now nothing is timed until
# the box is stopped (up to the fill's time limit, then the fill fails),
# so its CPU outside its fills is what a stop's own delivery takes: 0 to
# 13 ms a run in 10 runs here (a 2 GiB populate; why any at all is not
# known), against 1.4-1.6 s before; the bound is 100 ms.
# popuhog.py's plug-in, one thread of 1 GiB (populated and dropped each fill).  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
python3 tests/fixtures/adversary/host/redteam277/popuhog.py problems/rowsum.c 1 1024 || fail "popuhog.py"
"$EVIDENT" run --no-progress --repeats 1 --store "$TEST_TMP/s" tests/fixtures/specs/host-redteam275-fillhog-small.yaml > run.out 2>&1
cat run.out
expect_match run.out "^p3 +ok"
expect_match run.out "^p1 +ok"
python3 - "$TEST_TMP/s" > out.txt <<'PY' || fail "no runs read"
import glob, json, sys
n = 0
for f in sorted(glob.glob(sys.argv[1] + '/runs/*.json')):
    d = json.load(open(f))
    if 'outcome' not in d:
        continue
    m = (d.get('timing') or {}).get('method') or {}
    print('%s %s %s %s' % (d.get('variant'), d['outcome'], m.get('fill_box_outside_us', 'absent'),
                           m.get('fill_box_stop_wait_us', 'absent')))
    n += 1
sys.exit(0 if n else 1)
PY
cat out.txt
[ "$(wc -l < out.txt)" -eq 2 ] || fail "two runs expected"
awk '$3 == "absent" || $3 == "None" || !($3 + 0 < 100000) { bad = 1; print "fill box outside its fills: " $0 } END { exit bad }' out.txt ||
	fail "the fill box ran outside its fills (a thread in a long system call past the stop)"
# and the record says how long the runner waited for the box to stop
# (red team 280: a populate of 1 GiB a fill, tens of ms or more a fill)
awk '$4 == "absent" || $4 == "None" || !($4 + 0 > 10000) { bad = 1; print "no stop wait recorded: " $0 } END { exit bad }' out.txt ||
	fail "the record does not say the runner waited for the fill box to stop"
exit 0
