# t3020 - on a GPU: the function state a sealed plan reads after
# launch()'s third call (red team 172,
# tests/fixtures/adversary/cuda/redteam172/README.md).  The planner runs
# launch() once as a warm-up and captures two calls; it reads each
# kernel's carveout and cache configuration after the last.  carvereset
# and cachereset set carveout 0 or PreferL1 before every launch and set
# them back after the third call's, which the launch watch (off then)
# never saw: predicted replayed at the driver's defaults, ~8 us against
# ~15.7 us in their process.  lateentry's kept launch carveout was erased
# by a later entry of its function's other handle that set none.  Now
# the watch stays on through the third call (a value set twice is
# refused) and the handles' entries merge by the values they set:
# carvereset and cachereset launch_failed, lateentry ok near its
# trust: host twin (measured on an H200, 2026-12-04: 15.68 us both).
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only carvereset --only cachereset --only lateentry --only lateentry_host \
	tests/fixtures/specs/cuda-redteam172.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^carvereset +launch_failed " run.txt || { cat run.txt; fail "carvereset (a carveout set back after the third call's launch) was not refused"; }
grep -qE "^cachereset +launch_failed " run.txt || { cat run.txt; fail "cachereset (a cache configuration set back after the third call's launch) was not refused"; }
med() { awk -v v="$1" '$1 == v && $2 == "ok" { print $3 }' run.txt; }
a=$(med lateentry) h=$(med lateentry_host)
[ -n "$a" ] && [ -n "$h" ] || { cat run.txt; fail "lateentry or lateentry_host is not ok"; }
awk -v a="$a" -v h="$h" 'BEGIN { exit !(a >= 0.85 * h) }' ||
	{ cat run.txt; fail "lateentry's sealed median $a us is under 0.85x its process's $h us: its launch carveout was not carried"; }
