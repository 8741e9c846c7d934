# t3018 - on a GPU: device state init() leaves that a sealed replay in a
# fresh context would not hold (red team 163,
# tests/fixtures/adversary/cuda/redteam163/README.md).  `between` keeps
# its knob (4096 dependent FMAs a lane that the outputs never see) in an
# allocation init() made between the launch's two scratch buffers, which
# the worker lays out as the planner did: the planner now carries the
# memory between them (seal.cu span_gaps), so its sealed median is its
# process's (between_host's), not the honest 7.7 us.  Before (batch
# 20261204T120755.976Z-cuda-redteam163-c3a550e2-batch on an H200): between
# 17.2 us sealed against 22.1 us trust: host.  `heap` keeps it in freed
# blocks of the device malloc heap, which no plan can carry: its object
# calls malloc, and a sealed object that calls the device heap is
# refused (cuda_worker.c, seal_fatbin_device_heap); before, ok at 26.2 us
# against 36.8 us in its process.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only between --only between_host --only heap --only heap_host \
	tests/fixtures/specs/cuda-redteam163.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
med() { awk -v v="$1" '$1 == v && $2 == "ok" { print $3 }' run.txt; }
b=$(med between) h=$(med between_host)
[ -n "$b" ] && [ -n "$h" ] || { cat run.txt; fail "between or between_host is not ok"; }
awk -v b="$b" -v h="$h" 'BEGIN { exit !(b >= 0.85 * h) }' ||
	{ cat run.txt; fail "between's sealed median $b us is under 0.85x its process's $h us: the knob between its buffers was not carried"; }
grep -qE "^heap +launch_failed " run.txt || { cat run.txt; fail "heap was not refused"; }
grep -q "calls the device heap" run.txt || { cat run.txt; fail "heap's reason does not name the device heap"; }
grep -qE "^heap_host +ok " run.txt || { cat run.txt; fail "heap_host (trust: host) is not ok"; }
