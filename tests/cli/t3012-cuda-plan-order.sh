# t3012 - on a GPU: a sealed plan keeps launch()'s order or is refused
# (red team 64, docs/redteam64-cuda.md, tests/fixtures/specs/
# cuda-redteam64.yaml).  race's launch() forks two kernels onto two
# streams with no event between them (A writes a workspace, B copies it
# to Y): wrong in its own process, where they overlap, but the replay ran
# the plan's two nodes one after the other, in an order launch() never
# promised, and every check passed (ok at 9.82 us on an H200, batch
# 20261201T141345.623Z-cuda-redteam64-a2d164a9-batch).  A plan whose
# launches are not one chain is launch_failed now, saying why.  packed
# hides the only pointer to its workspace at byte 4 of a descriptor
# init() wrote: the replay kept the planner's address and crashed; now
# launch_failed, naming the offset.  The honest baseline, copy_sym
# (a memset and a device copy into globals) and pool_dev stay ok.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only race --only packed --only copy_sym --only pool_dev \
	tests/fixtures/specs/cuda-redteam64.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
grep -qE "^honest +ok " run.txt || { cat run.txt; fail "the honest baseline is not ok"; }
grep -qE "^copy_sym +ok " run.txt || { cat run.txt; fail "copy_sym is not ok"; }
grep -qE "^pool_dev +ok " run.txt || { cat run.txt; fail "pool_dev is not ok"; }
grep -qE "^race +launch_failed " run.txt || { cat run.txt; fail "race was not refused"; }
grep -qE "^packed +launch_failed " run.txt || { cat run.txt; fail "packed was not refused"; }
grep -q "left two of its launches unordered" run.txt || { cat run.txt; fail "race's reason does not say its launches were unordered"; }
grep -q "not 8-byte aligned" run.txt || { cat run.txt; fail "packed's reason does not name the unaligned pointer"; }
# red team 66: work launch() runs on a stream no capture holds is refused
# (side, side_gate: ok at 8.70 and 9.25 us before, batch
# 20261201T151154.074Z-cuda-redteam66-34ca260c-batch); joined_gate,
# the same builder joined by events, is captured and ok
"$EVIDENT" run --no-progress --repeats 1 --only side --only side_gate --only joined_gate \
	tests/fixtures/specs/cuda-redteam66.yaml >run66.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 5 ] || { cat run66.txt; fail "red team 66's run failed (exit $rc)"; }
grep -qE "^side +launch_failed " run66.txt || { cat run66.txt; fail "side was not refused"; }
grep -qE "^side_gate +launch_failed " run66.txt || { cat run66.txt; fail "side_gate was not refused"; }
grep -qE "^joined_gate +ok " run66.txt || { cat run66.txt; fail "joined_gate is not ok"; }
grep -q "outside its capture" run66.txt || { cat run66.txt; fail "the reason does not say the work ran outside the capture"; }
true
