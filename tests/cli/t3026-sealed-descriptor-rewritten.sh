# t3026 - on a GPU: a sealed plan carries a word of the kernel's own
# memory (or a module global) that points at the launch's tensors when the
# captured work itself rewrites it every call (red team 248: a one-thread
# setup kernel writes {X, Y} into a descriptor, the row kernel reads it;
# seal.cu capture_rewrites runs the captured graph once with the word
# zeroed and sees it written back), and still refuses one the captured
# work does not rewrite (stale: init() wrote it once) or reads before it
# writes it (late: the try faults).  Before the fix ptab and ptabg were
# launch_failed ("init() left a pointer into the launch's input 0"),
# PREDICTED from the code; written without a GPU: not yet run on one.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only plain --only ptab --only ptab_host --only ptabg --only ptabg_host \
	--only stale --only late tests/fixtures/specs/cuda-redteam248.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^plain +ok " run.txt || { cat run.txt; fail "plain (honest) was not ok"; }
grep -qE "^ptab +ok " run.txt || { cat run.txt; fail "ptab (a descriptor the captured work rewrites) was not ok"; }
grep -qE "^ptabg +ok " run.txt || { cat run.txt; fail "ptabg (a module global the captured work rewrites) was not ok"; }
grep -qE "^ptab_host +ok " run.txt || { cat run.txt; fail "ptab_host (trust: host) was not ok"; }
grep -qE "^ptabg_host +ok " run.txt || { cat run.txt; fail "ptabg_host (trust: host) was not ok"; }
grep -qE "^stale +launch_failed " run.txt || { cat run.txt; fail "stale (a descriptor only init() wrote) was not refused"; }
grep -q "does not rewrite it" run.txt || { cat run.txt; fail "stale's refusal does not say the captured work leaves the word"; }
grep -qE "^late +launch_failed " run.txt || { cat run.txt; fail "late (read before write: the try faults) was not refused"; }
grep -q "could not be tried" run.txt || { cat run.txt; fail "late's refusal does not say the try failed"; }
# red team 251's ring: a descriptor in a ring of two slots, a slot a
# call (a counter in device memory): the try's first call writes the
# other slot, its second the warm-up's (SEAL_TRY_RUNS)
"$EVIDENT" run --no-progress --repeats 1 --only plain --only ring --only ringg \
	tests/fixtures/specs/cuda-redteam251.yaml >ring.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat ring.txt; fail "the ring run failed (exit $rc)"; }
grep -qE "^ring +ok " ring.txt || { cat ring.txt; fail "ring (a two-slot descriptor ring in the kernel's memory) was not ok"; }
grep -qE "^ringg +ok " ring.txt || { cat ring.txt; fail "ringg (a two-slot descriptor ring in a module global) was not ok"; }
exit 0
