# Red team 44 (tests/fixtures/adversary/host/redteam44/README.md, finding
# 5): no_device takes a run out of every verdict and every audit claim,
# and a host kernel wrote the worker's failure message itself, outcome
# no_device, in the processes it could not vouch for: 5 of 6 runs
# no_device, and `validated` of the variant supported.  Now only a GPU
# worker's harness may say no_device, before its device opened; from a
# host worker it is a protocol_violation (outcome.c, test_outcome).
# And launch_failed or init_failed only before an output was shipped.
. "$REPO/tests/cli/lib.sh"
mkrepo
# coin_nodev with the coin always heads
d=tests/fixtures/adversary/host/redteam44
sed 's/if (b & 1) {/if (1) {/' "$d/coin_nodev.c" > "$d/nodev_always.c" || fail "sed"
grep -q 'if (1) {' "$d/nodev_always.c" || fail "the fixture changed: no coin to fix"
cat > "$TEST_TMP/nodev.yaml" <<Y
name: t0163-nodev
question: Can a host kernel declare its own run unjudged?
problem: rowsum
backend: host
shape: {R: 64, C: 64}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c, expect: ok}
  nodev: {kernel: $d/nodev_always.c, expect: protocol_violation}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress "$TEST_TMP/nodev.yaml"
expect_contains "$TEST_TMP/out" "nodev: protocol_violation - protocol violation: a host worker claimed the outcome 'no_device'"
expect_not_contains "$TEST_TMP/out" "no_device -"
# red team 45: a kernel that shipped wrong outputs, then returned non-zero
# from launch(), was launch_failed with no check, which the audit counts
# as a configuration that refused itself (refuse.md: validated supported).
# After a shipped output a launch or init failure is crashed
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam45-refuse.yaml
expect_contains "$TEST_TMP/out" "s2: crashed - the worker said launch_failed after it had shipped 1 seed output(s)"
expect_contains "$TEST_TMP/out" "s3: crashed - the worker said launch_failed after it had shipped 2 seed output(s)"
expect_exit 1 "$EVIDENT" audit --strict tests/fixtures/adversary/host/redteam45/refuse.md
expect_contains "$TEST_TMP/out" "contradicted: validated"
exit 0
