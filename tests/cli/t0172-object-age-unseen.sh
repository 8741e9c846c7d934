# t0172 - a kernel cannot tell how old its own object is: the box shows it
# a copy made as the box starts (bwrap --file, or --ro-bind-data under a
# writable mount), so its times are
# the box's.  age_probe's init refuses when the file it was loaded from is
# over 60 s old; the cached object is backdated by a day before a second
# run, which reuses it (no rebuild).  Before, the box bound the cache's
# file itself: the second run was init_failed, and red team 50's age_gate
# (8x slower when old) got copies of the reference promoted by eval and
# confirmed by a search (the incumbent is always the older build)
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/age.yaml <<'Y'
name: age
problem: rowsum
backend: host
shape: {R: 64, C: 256}
kernel: tests/fixtures/adversary/host/age_probe.c
variants:
  probe: {AGE_S: 60, expect: ok}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/age.yaml
n=0
for so in $(grep -rl rowsum_age_probe_cpu build/cache --include='*.so'); do
	touch -d '1 day ago' "$so" # the object and its echo-neutral twin
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no cached object of age_probe under build/cache"
expect_exit 0 "$EVIDENT" run --no-progress experiments/age.yaml
grep -q "age_probe: my object" "$TEST_TMP/out" "$TEST_TMP/err" && fail "the kernel saw its object's age: $(grep -h 'age_probe' "$TEST_TMP/out" "$TEST_TMP/err")"
n=$(grep -l '"outcome": "ok"' $(grep -L '"kind": "batch"' artifacts/runs/*.json) 2>/dev/null | wc -l)
[ "$n" -ge 2 ] || fail "expected both runs ok, got $n"
