# t3024 - on a GPU: a pointer in a kernel parameter at any offset that is
# not a multiple of 8 (a #pragma pack(1) struct) is refused with the way
# out, not passed to the replay as the planner's address; a pad from a
# host-located memory pool init() made is refused as host memory (red
# team 246, tests/fixtures/adversary/cuda/redteam246/README.md).  On an
# H100 before the fix packed2 (its pointer at bytes 18 and 14) crashed
# with an illegal address (the scan stepped by 4); poolhost was already
# launch_failed (the driver calls a host pool's memory HOST).
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only plain --only poolhost --only packed2 --only packed2_host \
	tests/fixtures/specs/cuda-redteam246.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^plain +ok " run.txt || { cat run.txt; fail "plain (honest) was not ok"; }
grep -qE "^packed2_host +ok " run.txt || { cat run.txt; fail "packed2_host (trust: host) was not ok"; }
grep -qE "^poolhost +launch_failed " run.txt || { cat run.txt; fail "poolhost (a host pool's pad) was not refused"; }
grep -qE "^packed2 +launch_failed " run.txt || { cat run.txt; fail "packed2 (a pointer at byte 18 of a packed parameter) was not refused"; }
grep -q "unaligned offset" run.txt || { cat run.txt; fail "packed2's refusal does not name the unaligned offset"; }
exit 0
