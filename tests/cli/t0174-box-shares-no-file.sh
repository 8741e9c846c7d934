# t0174 - a host box shares no file or directory with the host: every
# file it shows (the worker, the loader, the libraries, the objects, the
# loader's cache, /sys's CPU lists) is a copy written into the box's
# memory as it starts, and no descriptor it holds is a host file.
# shared_probe's init walks the box and its descriptors and refuses on a
# regular file or a directory outside tmpfs.  Before, the box bound /usr,
# /lib and /sys from the host (init_failed here; red team 52's
# dentry_count kept a run count in /sys's dentry cache), and red team 51's
# page_count counted its own runs in the page cache of a system file: the
# incumbent, with more runs, was 8x slower, and eval promoted 10 of 12
# candidates that were not faster
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/shared.yaml <<'Y'
name: shared
problem: rowsum
backend: host
shape: {R: 64, C: 256}
kernel: tests/fixtures/adversary/host/shared_probe.c
variants:
  probe: {expect: ok}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/shared.yaml
grep -h "shared_probe:" "$TEST_TMP/out" "$TEST_TMP/err" artifacts/runs/*.json 2>/dev/null | head -3 | grep . && fail "the box shares a file with the host"
n=$(grep -l '"outcome": "ok"' $(grep -L '"kind": "batch"' artifacts/runs/*.json) 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || fail "expected the probe ok, got $n"
