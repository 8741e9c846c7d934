# t3022 - on a GPU: every function attribute a sealed plan reads after
# launch()'s third call is the one its launches ran at, whichever handle
# set it (red team 179, tests/fixtures/adversary/cuda/redteam179/
# README.md).  clusreset cleared the function's required cluster before
# each launch and set it after: ok at 8.26 us sealed against 18.46 us in
# its process on an H200, with red team 176's fix in (which watched the
# carveout alone); addnode added its second launch to the capture's graph
# with cudaGraphAddKernelNode, where no launch callback sees it; kcache
# set PreferL1 on the CUkernel and launched its CUfunction.  Now
# clusreset and addnode are launch_failed, kcache is replayed at its
# process's split, and fnset (a carveout set on the CUfunction in init(),
# MaxDynamicSharedMemorySize set every call) stays ok.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only clusreset --only addnode --only kcache --only kcache_host \
	--only fnset tests/fixtures/specs/cuda-redteam179.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
for v in clusreset addnode; do
	grep -qE "^$v +launch_failed " run.txt || { cat run.txt; fail "$v (state the replay would not run at) was not refused"; }
done
grep -qE "^fnset +ok " run.txt || { cat run.txt; fail "fnset (honest: attributes set in init() and the same every call) was refused"; }
med() { awk -v v="$1" '$1 == v && $2 == "ok" { print $3 }' run.txt; }
a=$(med kcache) h=$(med kcache_host)
[ -n "$a" ] && [ -n "$h" ] || { cat run.txt; fail "kcache or kcache_host is not ok"; }
awk -v a="$a" -v h="$h" 'BEGIN { exit !(a >= 0.85 * h) }' ||
	{ cat run.txt; fail "kcache's sealed median $a us is under 0.85x its process's $h us: its cache configuration was not carried"; }
