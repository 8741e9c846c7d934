# t0287 - red team 212 (tests/fixtures/adversary/host/redteam212/README.md):
# honest kernels whose init makes a call a host kernel's box refuses or
# reads what it does not show (pthread_getattr_np of the main thread,
# /proc/self/status, a self-pipe, sysinfo, getloadavg, a memfd, a shared
# anonymous mapping) were init_failed with only the kernel's own error
# text.  Now the batch's notes name every such variant with what the box
# does not offer and what to use instead; a fixture that fails as its
# spec expects gets no such note.
. "$REPO/tests/cli/lib.sh"
mkrepo
S=tests/fixtures/specs/host-redteam212-noproc.yaml
sed -e 's/, expect: init_failed}/}/' -e 's/^repeats: 3/repeats: 1/' $S > experiments/np.yaml
grep -q 'expect:' experiments/np.yaml && fail "sed: an expect is left"
"$EVIDENT" run --no-progress experiments/np.yaml > "$TEST_TMP/out" 2>&1
for v in m4 m7 m16 m10 m20 m23 m24; do expect_match "$TEST_TMP/out" "^$v +init_failed"; done
expect_contains "$TEST_TMP/out" "m4, m7, m16, m10, m20, m23, m24: a host kernel's box has no /proc"
expect_contains "$TEST_TMP/out" "use getrusage, an eventfd, MAP_PRIVATE memory, threads or a file of its own"
# and in the batch record
B=$(ls artifacts/runs | grep -- '-batch.json$')
grep -q "a host kernel's box has no /proc" "artifacts/runs/$B" || fail "the note is not in the batch record"
# the spec as written (each expects init_failed): no such note
"$EVIDENT" run --no-progress --repeats 1 $S > "$TEST_TMP/out2" 2>&1 || fail "the spec's expects did not hold: $(tail -5 "$TEST_TMP/out2")"
expect_not_contains "$TEST_TMP/out2" "a host kernel's box has no /proc"
