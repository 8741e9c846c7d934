# t0177 - a host box copies nothing a kernel names by path: an object whose
# dynamic section names a library by its path fails its build with the
# reason, and the box copies a library only when it is an ELF object of
# the worker's machine.  Red team 54's host_file: a spec's flags (a stub
# library whose soname was /etc/shadow, linked with --no-as-needed) made
# the kernel's object need '/etc/shadow'; the runner, as root, copied that
# file into the box (the loader matched the name against the kernel's own
# soname and never opened it), and the kernel read it; the same way, the
# store's index gave an eval reference a memory across boxes (8 of 12
# promoted).  Here the named file is one of the test's own
. "$REPO/tests/cli/lib.sh"
# (a root runner shows a box only directories anyone may read)
chmod 755 "$TEST_TMP" || fail "chmod"
mkrepo
mkdir -p "$TEST_TMP/stub"
echo "a secret of the host's" > "$TEST_TMP/secret"
echo 'int rt54_stub(void) { return 0; }' > "$TEST_TMP/stub/stub.c"
cc -shared -fPIC -Wl,-soname,"$TEST_TMP/secret" -o "$TEST_TMP/stub/libstub.so" "$TEST_TMP/stub/stub.c" ||
	fail "cannot build the stub library"
cat > experiments/bypath.yaml <<Y
name: bypath
problem: rowsum
backend: host
shape: {R: 64, C: 256}
baseline: naive
flags: ["-Wl,-soname,$TEST_TMP/secret", "-Wl,--no-as-needed", "-L$TEST_TMP/stub", "-lstub"]
variants:
  naive: {kernel: kernels/rowsum/naive.c, expect: build_failed}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 experiments/bypath.yaml
grep -q "names a library by its path" "$TEST_TMP/out" || fail "no by-path reason: $(grep -h 'naive' "$TEST_TMP/out" | head -3)"
