# t0198 - compute-sanitizer's box refuses a file's times and mode (issue
# 22): a trust: host kernel's host code runs the whole timed sequence under
# the tool, in its box, and red team 33 kept a run count in the access
# time of the host's /dev/null, which every strict box refuses to change.
# Before, the sanitizer's box was the compiler's relaxed deny list, which
# allows them (gcc, ld and nvcc chmod their outputs).  The host backend
# has no compute-sanitizer: a static stand-in (tests/fixtures/host/
# sanitizer_standin.c) runs in the sanitizer's box as the tool would, tries
# utimensat on /dev/null and chmod on /tmp, says what it was answered, and
# runs the worker.  The GPU forms are t3001-t3011's, on an H200.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p "$TEST_TMP/fakecuda/bin"
cc -O2 -static -o "$TEST_TMP/fakecuda/bin/compute-sanitizer" tests/fixtures/host/sanitizer_standin.c 2>"$TEST_TMP/cc.err" ||
	skip "no static C library here (cc -static failed: $(head -1 "$TEST_TMP/cc.err"))"
chmod 755 "$TEST_TMP" "$TEST_TMP/fakecuda" "$TEST_TMP/fakecuda/bin"
export CUDA_HOME="$TEST_TMP/fakecuda"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-sanitize-output.yaml
expect_exit 0 "$EVIDENT" ls --json
cp "$TEST_TMP/out" "$TEST_TMP/ls.json"
id=$(python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["variant"] == "correct"][0])' <"$TEST_TMP/ls.json")
"$EVIDENT" show --json "$id" >"$TEST_TMP/rec.json" || fail "show --json $id"
# the tool's report (its output, kept as an object of the store)
obj=$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["report_object"]')
[ -f "$EVIDENT_STORE/objects/${obj%"${obj#??}"}/${obj#??}" ] || { jget "$TEST_TMP/rec.json" 'd["sanitize"]'; fail "no report object"; }
cp "$EVIDENT_STORE/objects/${obj%"${obj#??}"}/${obj#??}" "$TEST_TMP/report"
expect_contains "$TEST_TMP/report" "standin: utimensat Operation not permitted; chmod Operation not permitted"
# (the worker is not in a host box's copies, so the stand-in cannot start
# it: the verdict is null, which t0101's unsandboxed stand-in covers)
exit 0
