# t3023 - on a GPU: memory a sealed kernel's code imported (external
# memory of its own cuMemCreate allocation, mapped twice; host NUMA pages
# exported and imported) is refused, not replayed as plain device memory
# (red team 243, tests/fixtures/adversary/cuda/redteam243/README.md).  The
# driver calls such a mapping CU_MEMORYTYPE_DEVICE, not managed, unknown
# to cuMemRetainAllocationHandle, so seal.cu's classify gave it a buffer
# of its own: measured on an H100 before the fix, extalias ok at 10.43 us
# sealed against 20.48 us in its process, exthost 44.26 against 341.68 us.
# The planner's watch (harness.cu plan_import_seen) sees the import.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only plain --only extalias --only exthost --only extone \
	--only extalias_host tests/fixtures/specs/cuda-redteam243.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
for v in extalias exthost extone; do
	grep -qE "^$v +(launch_failed|init_failed) " run.txt ||
		{ cat run.txt; fail "$v (imported memory in a sealed plan) was not refused"; }
done
grep -qE "^plain +ok " run.txt || { cat run.txt; fail "plain (honest) was not ok"; }
grep -qE "^extalias_host +ok " run.txt || { cat run.txt; fail "extalias_host (trust: host) was not ok"; }
grep -l "imported memory" artifacts/runs/*.json >/dev/null 2>&1 ||
	{ cat run.txt; fail "no record says the kernel imported memory"; }
exit 0
