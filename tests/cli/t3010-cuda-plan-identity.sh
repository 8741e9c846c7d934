# t3010 - on a GPU: one kernel's code at one shape makes one sealed plan.
# A sealed kernel's host code runs only in its planner, so the plan is the
# one place where anything it reads of the host (a run count kept in a
# counter the host shares: red teams 30-33 and 52; the time) can change
# what is timed.  plan_clock passes a row bound read once a process from
# the clock (right outputs, another plan each process): its second repeat,
# planned in the same runner, is launch_failed (plan_unstable) and the
# variant flaky; the
# honest kernel's two repeats make one plan (its identity recorded in
# judge.plan.identity, equal), and plan_clock as trust: host is ok (its
# plan is not what is timed).  Before (a2ea10b2..194b7bad) plan_clock was
# ok, its repeats' plans unequal and nothing compared them (red team 52's
# rmc_a/rmc_b on an H200 pair, a run count in the driver's RM client
# counter: ok runs of 44.7 to 223.9 us; flaky after, across the pool's
# slots: data/gpu-evidence/h200x2-session-20261130-2345-call2.txt).
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --device 0 tests/fixtures/specs/cuda-plan-identity.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^honest +ok " run.txt || { cat run.txt; fail "the honest baseline is not ok"; }
grep -qE "^plan_clock +flaky " run.txt || { cat run.txt; fail "plan_clock is not flaky"; }
grep -qE "^plan_clock_host +ok " run.txt || { cat run.txt; fail "plan_clock_host is not ok"; }
grep -q "plan_unstable\|not the plan the same kernel object made" run.txt || { cat run.txt; fail "the reason does not say the plans differ"; }
ids=$(for f in $(grep -l '"variant": "honest"' artifacts/runs/*.json | grep -v batch); do jget "$f" "d['judge']['plan']['identity']"; done | sort -u)
[ "$(echo "$ids" | wc -l)" = 1 ] && [ ${#ids} = 64 ] || fail "the honest repeats' plan identities are not one: $ids"
exit 0
