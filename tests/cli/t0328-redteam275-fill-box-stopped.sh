# t0328 - red team 275 (host/redteam275/README.md): the problem plug-in's
# fill box lived for the job and was never stopped, so threads its fill()
# object started in that box (a constructor) spun beside the worker's null
# rounds and every timed sample; the runner read their CPU as the
# machine's load and took it off the baseline as run-queue waits (an
# honest pair's work ratio 1.63-2.13 in 7 of 7 batches against 2.01-2.88,
# two runs' medians 1.9x and 2.7x).  Now the fill box runs only from a
# request to its reply (problem_box.c filler_pause: SIGSTOP after each
# reply, waited for until its CPU stands still, SIGCONT before the next
# request), and each run records the CPU it used outside its fills
# (timing.method.fill_box_outside_us).  With red team 275's two threads
# spinning always: under a millisecond a run, where the same box unstopped
# uses the job's whole wall twice over.  About 15 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
R=tests/fixtures/adversary/host/redteam275
python3 "$R/fillhog.py" problems/rowsum.c 2 0 || fail "fillhog.py"
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
    print('%s %s %s' % (d.get('variant'), d['outcome'], m.get('fill_box_outside_us', 'absent')))
    n += 1
sys.exit(0 if n else 1)
PY
cat out.txt
[ "$(wc -l < out.txt)" -eq 2 ] || fail "two runs expected"
# the spinning threads' CPU while the box was stopped: none but what a
# stop's own delivery takes (unstopped, seconds)
awk '$3 == "absent" || $3 == "None" || !($3 + 0 < 5000) { bad = 1; print "fill box outside its fills: " $0 } END { exit bad }' out.txt ||
	fail "the fill box ran outside its fills (or the record does not say)"
exit 0
