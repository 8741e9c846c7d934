# t0176 - no process outside a box runs a kernel object's code: an object
# that names a loader hook (DT_AUDIT, DT_DEPAUDIT, DT_AUXILIARY,
# DT_FILTER) fails its build with the reason, and the box's files are
# found from the objects' dynamic sections, never by asking the loader to
# list an object.  Red team 53's audit_escape: a spec's
# -Wl,--audit=kernel.so made the kernel's own object its audit module, and
# `ld.so --list`, run by the runner to fill the box, called its
# la_version() as the runner's user (root on the GPU hosts), outside every
# box: it kept a run count in /tmp and was recorded ok
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/audit.yaml <<'Y'
name: audit
problem: rowsum
backend: host
shape: {R: 64, C: 256}
baseline: naive
flags: ["-Wl,--audit=kernel.so", "-Wl,-rpath,$ORIGIN"]
variants:
  naive: {kernel: kernels/rowsum/naive.c, expect: build_failed}
  audit: {kernel: tests/fixtures/adversary/host/redteam53/audit_escape.c, expect: build_failed}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
before=$(cat /tmp/rt53-escape.count 2>/dev/null || echo none)
expect_exit 0 "$EVIDENT" run --no-progress experiments/audit.yaml
after=$(cat /tmp/rt53-escape.count 2>/dev/null || echo none)
[ "$before" = "$after" ] || fail "the kernel's audit module ran outside the box (its count: $before -> $after)"
# the flags are taken by allow list (build_flags.c): --audit is refused
# before compiling, naming it; the object's own check (elf_refuse_hooks,
# "names a loader hook (DT_AUDIT") stays behind it (test_elf)
grep -q "the flag '--audit=kernel.so' (a linker option, from -Wl, or -Xlinker) is refused" "$TEST_TMP/out" ||
	fail "no refusal of --audit: $(grep -h 'build_failed' "$TEST_TMP/out" | head -2)"
runs=$(grep -L '"kind": "batch"' artifacts/runs/*.json)
n=$(grep -l '"outcome": "build_failed"' $runs | wc -l)
[ "$n" -ge 2 ] && [ "$n" -eq "$(echo $runs | wc -w)" ] || fail "expected every run build_failed, got $n of $(echo $runs | wc -w)"
