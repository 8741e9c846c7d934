# t3027 - on a GPU: three honest sealed kernels the planner refused (red
# team 255, tests/fixtures/adversary/cuda/redteam255/README.md): wlist, a
# work list of {part + row, Y + row} appended at atomicAdd(counter, 1)
# every call, whose slots come back in the order the warps come, not the
# warm-up's (capture_rewrites now carries a word that the try finds
# pointing anywhere in a launch's tensor); bigws, a 16 GiB zeroed
# workspace, which the planner's byte-by-byte scan kept at it for minutes
# (windows over two zero words are skipped now); bigtry, wlfix's list
# beside a 4.5 GiB workspace, refused by the try's fixed 4 GiB cap on its
# copy aside (host memory now takes what half the device's free memory
# cannot).  Their controls (wlfix, smallws, smalltry) stay ok.  On an
# H100 (2026-12-06): before the fix wlist and bigtry launch_failed and
# bigws timeout (60 s), after it this test passes in 100 s
# (data/gpu-evidence/h100-session-20261206-1950-t3027-suite.txt).
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
run_spec() { # OUT SPEC --only...
	local out=$1 spec=$2
	shift 2
	"$EVIDENT" run --no-progress --repeats 1 "$@" "tests/fixtures/specs/$spec" >"$out" 2>&1
	local rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat "$out"; fail "$spec failed (exit $rc)"; }
}
ok_row() { # OUT VARIANT WHAT
	grep -qE "^$2 +ok " "$1" || { cat "$1"; fail "$2 ($3) was not ok"; }
}
run_spec wl.txt cuda-redteam255-wlist.yaml --only plain --only wlist --only wlfix --only fptab
ok_row wl.txt plain "honest"
ok_row wl.txt wlist "a work list appended at an atomic counter"
ok_row wl.txt wlfix "the same list at fixed slots"
ok_row wl.txt fptab "a static table of device function pointers"
run_spec ws.txt cuda-redteam255-bigws.yaml --only plain --only bigws --only smallws
ok_row ws.txt bigws "a 16 GiB zeroed workspace"
ok_row ws.txt smallws "a 64 MiB zeroed workspace"
run_spec try.txt cuda-redteam255-bigtry.yaml --only plain --only bigtry --only smalltry
ok_row try.txt bigtry "a rewritten list beside a 4.5 GiB workspace"
ok_row try.txt smalltry "a rewritten list beside a 64 MiB workspace"
exit 0
