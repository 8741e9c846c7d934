# t6013: the auditor against the committed study store (artifacts/, run
# from the repository root, where the records' kernel paths resolve):
# a sanitizer's failure contradicts 'validated', an unbounded tolerance is
# a malformed claim, a claim of one quantity does not trace a number of
# another, a methods setting that differs from the records is contradicted,
# and PAPER.md passes the strict audit that make audit and make test run.
. "$REPO/tests/cli/lib.sh"
# In make test it runs in the plain pass: the whole store's audit is 98 s
# of CPU under ASan and 20 s plain here (2026-12-01, 5,348 records: most
# of it jansson's parsing through ASan's malloc); the audit's own lines
# run sanitized in t6010, t0162, t0203 and t0231 on small stores
plain_pass
cat >"$TEST_TMP/study.md" <<'M'
<!-- evident:store path=artifacts -->
The racy kernel is validated. <!-- claim: validated experiment=cuda-faults variant=smem_race -->
The correct kernel is validated. <!-- claim: validated experiment=cuda-faults variant=correct -->

The baseline takes 321 us. <!-- claim: value experiment=iter1 variant=base stat=median_us value=321us tol=200% -->

The baseline takes 113.9 us. <!-- claim: value experiment=iter1 variant=base stat=median_us value=113.9us tol=10us -->

SDPA takes 50.18 us. <!-- claim: value experiment=iter1 variant=base stat=n value=50.18 -->

The sweep took `samples: 300`. <!-- claim: setting experiment=sweep key=timing.samples value=300 -->
M
cd "$REPO" || fail "no repository"
expect_exit 1 "$EVIDENT" audit "$TEST_TMP/study.md"
o="$TEST_TMP/out" f="$TEST_TMP/study.md"
# 3. racecheck failed on smem_race in every run: not validated, and the message says so
# (counts grow as the study records more batches: only the shape is fixed)
expect_match $o "$f:2: contradicted: validated cuda-faults/smem_race: ([0-9]+) of \\1 run\\(s\\) of the current source failed a check: run "
expect_match $o ": racecheck found [0-9]+ error\\(s\\)"
expect_match $o "$f:3: supported: validated cuda-faults/correct: [0-9]+ run\\(s\\) of the current source passed every check that ran: [0-9]+ seeds?, .*racecheck \\(latest "
# 1. a tolerance wider than the cap is malformed, and the claim traces nothing
expect_contains $o "$f:5: error: claim 'value': tol=200% is wider than the 5% a claim may allow"
expect_contains $o "$f:5: untraced: '321 us' is neither generated"
expect_contains $o "$f:7: error: claim 'value': tol=10us is more than 5% of the stated value"
expect_contains $o "$f:7: untraced: '113.9 us' is neither generated"
# 2. a claim about the sample count does not trace a time
expect_match $o "$f:9: contradicted: value iter1/base n=50.18: recorded [0-9]+, "
expect_contains $o "$f:9: untraced: '50.18 us' is neither generated"
# 5. a methods setting checked against what the runs recorded
expect_contains $o "$f:11: contradicted: setting sweep timing.samples=300: 32 of 32 run(s) recorded another value: BLOCK_M-64_NUM_WARPS-4_STAGES-1_S_FP16-0_VEC_WIDTH-8 recorded 100 (run "
! grep -q "$f:11: untraced" $o || fail "the setting claim should trace the code span"
expect_contains $o 'audit: 6 claims: 1 supported, 3 contradicted, 0 stale, 0 unsupported, 2 malformed; 3 untraced numbers'

# 6. the repository's own paper: strict audit and generated blocks up to date
# (make test's repository checks leave these two to this test: the
# Makefile's REPO_CLI_CHECKS, which scripts/run-tests.sh sets)
# (one strict audit, its claim lines kept for 7: -q changes only what is
# printed, and t6010-t6012 check it; an audit of PAPER.md is 6 s of CPU)
expect_exit 0 "$EVIDENT" audit --strict PAPER.md
expect_contains $o '; 0 untraced numbers'
cp $o "$TEST_TMP/paper-audit"
expect_exit 0 "$EVIDENT" paper --check PAPER.md
# ... and make audit / the repository check in make test run it strictly
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s --no-print-directory audit test-repo EVIDENT=bin/evident NVCC= >"$TEST_TMP/make.out" 2>&1
[ "$(grep -c 'audit .*--strict.* PAPER.md' "$TEST_TMP/make.out")" = 2 ] ||
	{ cat "$TEST_TMP/make.out"; fail "make audit and make test-repo must run 'evident audit --strict'"; }
# ... and where make test leaves them to this test, it skips them, naming it
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s --no-print-directory test-repo REPO_CLI_CHECKS=1 EVIDENT=bin/evident NVCC= >"$TEST_TMP/make.out" 2>&1
grep -q -- '--skip audit "CLI test t6013 runs audit --strict PAPER.md"' "$TEST_TMP/make.out" &&
	grep -q -- '--skip paper "CLI test t6013 runs paper --check PAPER.md"' "$TEST_TMP/make.out" &&
	grep -q 'run-check.sh [^ ]* verify ' "$TEST_TMP/make.out" ||
	{ cat "$TEST_TMP/make.out"; fail "make test-repo REPO_CLI_CHECKS=1 must skip audit and paper for t6013 (and still verify)"; }
grep -q 'test-repo REPO_CLI_CHECKS=1' scripts/run-tests.sh ||
	fail "scripts/run-tests.sh no longer leaves audit and paper to t6013: drop this test's note"

# 7. a comparison with a GPU kernel that ran trust: host says so on its line
#    (cuDNN, a reference, and iter3's wg2_host); a sealed pair says nothing
o="$TEST_TMP/paper-audit"
expect_match $o 'supported: faster wg3 vs cudnn_sdpa: .*; cudnn_sdpa ran trust: host \(its host code in the timing worker, not sealed\)'
expect_match $o 'supported: value iter3/wg2_host median_us=.*; wg2_host ran trust: host '
# ... and holds no comparison verdict (stats.h rule 0c: its time is the
# timing worker's word, so PAPER.md states it as a value, not a verdict)
grep -E 'supported: (faster|slower|no-difference) (wg2_host vs|.* vs wg2_host)' $o && fail "a comparison with trust: host wg2_host was supported"
grep 'supported: faster wg3 vs mma:' $o | grep -q 'trust: host' && fail "a sealed pair is marked trust: host"
true
