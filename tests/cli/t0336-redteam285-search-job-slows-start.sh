# t0336 - red team 285 row 2c (host/redteam285/README.md): a search's
# confirmation never read eval's rule for the reference's job (eval.c
# ref_fastest_other_job, red team 284 row 3), so a search run under
# OMP_NUM_THREADS=1, which slowed only its threaded start (par.c: 8 ms at
# one thread, 4 ms on two CPUs), promoted and confirmed greedy.c (par.c's
# work on 2 threads whatever the job) 1.97x, 3 of 3, after two default-job
# batches where the two codes tie.  Now the confirmation holds the start
# to its fastest under another job, as eval does (search.c
# confirm_promotion: job_held): base kept, and the why says the start's
# code ran faster under another job.  The history batches run in the
# default job; the search under OMP_NUM_THREADS=1.  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone_light "sleep-timed kernels 2x apart"
mkrepo
S=tests/fixtures/specs
# the project's default-job history of the two codes (one may meet load)
for i in 1 2; do
	expect_exit 0 "$EVIDENT" run --no-progress $S/host-redteam285-shist.yaml
done
OMP_NUM_THREADS=1 "$EVIDENT" run --no-progress $S/host-redteam285-search.yaml > s.out 2> s.err ||
	fail "the search failed: $(tail -3 s.err)"
rec=$(ls artifacts/runs/*-search.json | head -1)
[ -n "$rec" ] || fail "no search record"
python3 -S - "$rec" > s.txt <<'PY' || fail "the search record unreadable"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["generations"][0]
c = {x["id"]: x for x in g["candidates"]}
cmp = c["g0c1"].get("comparison") or {}
print("best=%s g0c1_verdict=%s" % (d["best"]["id"], cmp.get("verdict")))
print("why:", g["why"])
PY
cat s.txt
expect_match s.txt "^best=base "
if grep -q "confirmation batch of fresh processes ([^)]*) said inconclusive" s.txt; then
	# the confirmation itself read inconclusive (load 6 beside make test's
	# helpers, 2026-12-07: 2.060x [1.885, 2.389]): no rule of the job's reached
	echo "note: the confirmation read inconclusive here (load?): the job rule not reached"
elif grep -q "^best=base g0c1_verdict=faster" s.txt; then
	# the reason, where the generation's batch read greedy faster: the
	# search's job slowed the start
	expect_contains s.txt "base's code ran"
	expect_contains s.txt "faster under another job"
	expect_not_contains s.txt "job only"
else
	echo "note: the generation's batch did not read g0c1 faster here (load?): the job rule not reached"
fi
exit 0
