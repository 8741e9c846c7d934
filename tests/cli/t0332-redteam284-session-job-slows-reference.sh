# t0332 - red team 284 row 3 (host/redteam284/README.md): eval's drift
# rule held the reference to its fastest under the session's own job only
# (eval.c fastest_of, code_same_history), so a proposer that ran its eval
# session with OMP_NUM_THREADS=1, which slowed only the threaded reference
# (par.c: 8 ms at one thread, 4 ms on two CPUs), was promoted 1.98x with
# greedy.c (par.c's work on 2 threads whatever the job: the reference's
# speed in the default job), 6 of 6, while the audit, which holds the
# slower side to its fastest under any job, refused the same claim.  Now
# eval holds the reference to its fastest under another job of the same
# spec's knobs too (eval.c ref_fastest_other_job): "faster than the
# reference under this session's job only", not promoted.  The project's
# batches of the reference alone run in the default job; the session under
# OMP_NUM_THREADS=1.  About 15 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone_light "sleep-timed kernels 2x apart"
mkrepo
S=tests/fixtures/specs
F=tests/fixtures/adversary/host/redteam284
# two of the project's batches of the reference (one may meet load)
for i in 1 2; do
	expect_exit 0 "$EVIDENT" run --no-progress $S/host-redteam284-jobref.yaml
done
echo "{\"kernel\": \"$F/greedy.c\", \"params\": {\"SLEEP_US\": 8000}}" |
	OMP_NUM_THREADS=1 "$EVIDENT" eval --no-progress $S/host-redteam284-job.yaml > e.out 2> e.err ||
	fail "eval failed: $(tail -3 e.err)"
python3 -S - e.out > e.txt <<'PY' || fail "eval's answer unreadable"
import json, sys
d = json.loads(open(sys.argv[1]).readline())
j = d.get("reference_other_job") or {}
print("promoted=%s verdict=%s" % (d.get("promoted"), d.get("verdict")))
print("other_job ratio=%s held=%s" % (j.get("ratio") and round(j["ratio"], 2), j.get("held")))
print("decision:", d.get("decision"))
PY
cat e.txt
expect_match e.txt "^promoted=False "
if grep -q "^promoted=False verdict=faster" e.txt; then
	# the reason, where the session's verdict was faster: its job slowed the reference
	expect_match e.txt "^other_job ratio=(1\.[5-9]|2\.[0-2])[0-9]* held=True"
	expect_contains e.txt "this session's job may be what slowed the reference"
	expect_not_contains e.txt "job only"
else
	echo "note: the session's verdict was not faster here (load?): the job rule not reached"
fi
exit 0
