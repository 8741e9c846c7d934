# Red team 20 (tests/fixtures/adversary/host/redteam20/README.md): every
# input is SplitMix64, which runs backwards, so a gemm kernel recovered
# each launch's seed from its fp32 inputs (about 54 ms) and with it the
# ~1024 entries of C that `cancel`'s focus judges (their key was the
# seed): seed_oracle summed those in fp32 and the rest in fp16 chunks, ok
# 5 of 5; dist_oracle told `cancel` from `uniform` by which stream the
# recovered state fits, ok 2 of 2.  Now the focus key also takes a secret
# the parent draws after the worker ended (the checker's focus_secret),
# and `cancel` is `uniform`'s own stream: both are wrong_output.
. "$REPO/tests/cli/lib.sh"
mkrepo
timeout -s KILL 180 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam20-oracle.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 180 s"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a variant did not get its expected outcome"
expect_match "$TEST_TMP/out" "^seed_oracle +wrong_output "
expect_match "$TEST_TMP/out" "^dist_oracle +(wrong_output|flaky) "
expect_match "$TEST_TMP/out" "^honest +ok "
exit 0
