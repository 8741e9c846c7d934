# kernels written to win the benchmark are caught, each by its mechanism,
# and honest kernels (one that prints protocol-looking lines on stdout and
# stderr from its constructor, launch and fini included) stay ok
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject includes the build cache: a tampered entry is set aside and rebuilt"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-adversary.yaml
grep -q "UNEXPECTED" "$TEST_TMP/out" && fail "a variant did not get its expected outcome"
# bin_swap cannot write its cached object from inside the box: it stays honest
for v in honest honest_noise naive blocked content_memo bin_swap; do
	grep -qE "^$v +ok " "$TEST_TMP/out" || fail "honest '$v' is not ok"
done
expect_contains "$TEST_TMP/out" "forged_msg: protocol_violation - protocol violation:"
# host_thread's thread still computes when the parent captures the outputs:
# its checks find them unwritten (until red team 31 the thread count made it
# escaped_work; a thread gone by the next sample's freeze no longer counts,
# and its leftover work runs inside that sample's time)
# (which mechanism is a race: flaky or unwritten_output by the checks,
# escaped_work by the CPU it used after the done line, as in CI at load 8)
expect_match "$TEST_TMP/out" "host_thread: (flaky - .* [1-9][0-9]* unwritten|unwritten_output - |escaped_work - .*after the done line)"
expect_contains "$TEST_TMP/out" "at the extra shape"
expect_contains "$TEST_TMP/out" "right when checked before timing, wrong in"
# the record of tol_write shows the tolerance the checker used, not the one it wrote
r=$(grep -l '"variant": "tol_write"' artifacts/runs/*.json | grep -v batch | head -1)
expect_eq "$(jget "$r" "d['correctness']['tolerance']['rel_l2']")" "1e-05" "tolerance recorded (the problem's fp32 rule)"
# the noisy kernel's lines are in its log, not in its record's timing
r=$(grep -l '"variant": "honest_noise"' artifacts/runs/*.json | grep -v batch | head -1)
# (60 timed: uniform's, three in four on average, are the time; timing.by_dist has all)
expect_eq "$(jget "$r" "sum(x['n'] for x in d['timing']['by_dist'].values())")" "60" "honest_noise samples"
expect_eq "$(jget "$r" "d['timing']['n']")" "$(jget "$r" "d['timing']['by_dist']['uniform']['n']")" "honest_noise samples in the time"
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" || fail "show --log"
# (its launch()'s stderr line: its fini() no longer runs, a boxed host
# worker being killed at its last output)
expect_contains "$TEST_TMP/log" '{"msg":"timing","samples_us":[0.5]}'
# unboxed (--unsandboxed), it rewrites its object: tampered, by the hash
# taken after the worker ran; then the tampered cache entry is set aside
# (and rebuilt) by the next run that builds the same key - an unboxed one
# (an object compiled in the box has a key of its own, build.c), where
# bin_swap rewrites its fresh object again
expect_exit 1 "$EVIDENT" run --no-progress --jobs 1 --unsandboxed --only bin_swap tests/fixtures/specs/host-adversary.yaml
expect_contains "$TEST_TMP/out" "bin_swap: tampered"
expect_exit 1 "$EVIDENT" run --no-progress --jobs 1 --unsandboxed --only bin_swap tests/fixtures/specs/host-adversary.yaml
expect_contains "$TEST_TMP/err" "does not match the hash recorded when it was built"
ls build/cache | grep -q '\.tampered-' || fail "the tampered cache entry was not set aside"
# boxed, the object built in the box is the one that runs, untouched
expect_exit 0 "$EVIDENT" run --no-progress --jobs 1 --only bin_swap tests/fixtures/specs/host-adversary.yaml
grep -qE "^bin_swap +ok " "$TEST_TMP/out" || fail "boxed, bin_swap is not ok"
