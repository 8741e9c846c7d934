# t0101 - a sanitizer's verdict covers a run that computed the judged
# answer (red team 56's empty): the sanitized worker's output goes to the
# checker, and a run that wrote nothing is not passed whatever the tool's
# summary says.  The host backend has no compute-sanitizer: a stand-in
# (compute-sanitizer's argv, its injection variable, a clean summary)
# runs the worker unsandboxed.  The CUDA forms (the sealed replay, racecheck
# on rt56_sanhide) are t3002's, on a GPU.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p "$TEST_TMP/fakecuda/bin"
cat >"$TEST_TMP/fakecuda/bin/compute-sanitizer" <<SH
#!/bin/sh
# stand-in: --tool T --error-exitcode 86 --print-limit 50 [--OPTION VALUE]... WORKER...
[ "\$1" = --tool ] && [ "\$3" = --error-exitcode ] && [ "\$5" = --print-limit ] || exit 2
echo "\$*" >>"$TEST_TMP/sanitizer-argv"
while [ "\${1#--}" != "\$1" ]; do shift 2; done
# the job the worker is given (fd 7), as it reads it
cat "\$3" >>"$TEST_TMP/sanitized-jobs"
CUDA_INJECTION64_PATH=/stand-in/libsanitizer-collection.so "\$@"
rc=\$?
echo "========= ERROR SUMMARY: 0 errors"
exit \$rc
SH
chmod +x "$TEST_TMP/fakecuda/bin/compute-sanitizer"
export CUDA_HOME="$TEST_TMP/fakecuda"
expect_exit 0 "$EVIDENT" run --no-progress --unsandboxed tests/fixtures/specs/host-sanitize-output.yaml
grep -qE "^correct +ok " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "correct is not ok"; }
grep -qE "^sanitized_empty +ok " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "sanitized_empty is not ok (its timed run is right)"; }
expect_exit 0 "$EVIDENT" ls --json
cp "$TEST_TMP/out" "$TEST_TMP/ls.json"
rec() { # variant -> its record in $TEST_TMP/rec.json
	local id
	id=$(python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["variant"] == sys.argv[1]][0])' "$1" <"$TEST_TMP/ls.json")
	"$EVIDENT" show --json "$id" >"$TEST_TMP/rec.json" || fail "show --json $id"
}
rec correct
expect_eq "$(jget "$TEST_TMP/rec.json" '[(v["tool"], v["passed"], v["watched"], v["output"]["passed"]) for v in d["sanitize"]]')" \
	"[('memcheck', True, 'in process', True)]" "correct's verdict"
rec sanitized_empty
expect_eq "$(jget "$TEST_TMP/rec.json" '[(v["tool"], v["passed"], v["errors"], v["watched"], v["output"]["passed"]) for v in d["sanitize"]]')" \
	"[('memcheck', False, 0, 'in process', False)]" "sanitized_empty's verdict: a clean summary of a run that computed nothing"
jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["reason"]' >"$TEST_TMP/reason"
expect_contains "$TEST_TMP/reason" "the sanitized run's output was not right"
# the audit does not count it among the checks that stood behind the code
"$EVIDENT" show "$(jget "$TEST_TMP/rec.json" 'd["run_id"]')" >"$TEST_TMP/show" 2>&1 || fail "show"
expect_contains "$TEST_TMP/show" "memcheck   FAILED, 0 error(s) [in process]"
# the sanitized worker ran the main job's seeds (2, not 1), untimed on the
# host backend (no compute-sanitizer of its own: no window either)
python3 - "$TEST_TMP/sanitized-jobs" <<'PY' || fail "the sanitized jobs are not the main job's seeds"
import json, sys
text = open(sys.argv[1]).read()
jobs, dec, i = [], json.JSONDecoder(), 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    o, i = dec.raw_decode(text, i)
    jobs.append(o)
assert len(jobs) == 2, len(jobs)
for j in jobs:
    assert j["phase"] == "sanitize" and j["seeds"] == 2 and j["timing"] is False, j
PY
expect_eq "$(jget "$TEST_TMP/rec.json" '[(v["seeds"], v["timed"], "window" in v) for v in d["sanitize"]]')" \
	"[(2, False, False)]" "the host sanitized run: the main job's seeds, untimed, no window"
if grep -q -- --launch-skip "$TEST_TMP/sanitizer-argv"; then fail "a window on the host backend"; fi
