# t3002 - compute-sanitizer on a GPU: a kernel whose answer is right but
# which races on shared memory is ok by its correctness checks, and its
# record carries a failed racecheck verdict; the control's verdicts pass.
# A sealed kernel's tools watch the sealed replay of the plan that was
# timed, and the sanitized run's output is judged: red team 56's hide
# (racy only under capture) and empty (nothing enqueued uncaptured) fail
# racecheck, and so does a trust: host kernel that enqueues nothing when
# it sees the sanitizer (cuda-sanhide.yaml).  The sanitized run is the
# main job's sequence, every launch instrumented: red team 57's
# launch ticket (rt57_count.cu MODE 1) fails racecheck sealed and trust:
# host (cuda-sanfull.yaml)
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/smem_race.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
command -v compute-sanitizer >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" ] ||
	skip "compute-sanitizer not found"
mkrepo git
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-race.yaml
expect_exit 0 "$EVIDENT" ls --json
cp "$TEST_TMP/out" "$TEST_TMP/ls.json"
verdicts() { # variant [experiment] -> "tool=passed ..." from its record
	local id
	id=$(python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["variant"] == sys.argv[1] and r["experiment"] == sys.argv[2]][0])' "$1" "${2:-cuda-race}" <"$TEST_TMP/ls.json")
	"$EVIDENT" show --json "$id" >"$TEST_TMP/rec.json" || fail "show --json $id"
	jget "$TEST_TMP/rec.json" '" ".join(sorted("%s=%s" % (v["tool"], v["passed"]) for v in d["sanitize"]))'
}
expect_eq "$(verdicts correct)" "memcheck=True racecheck=True" "correct's verdicts"
expect_eq "$(verdicts smem_race)" "memcheck=True racecheck=False" "smem_race's verdicts"
# the report itself is a stored object
obj=$(jget "$TEST_TMP/rec.json" '[v["report_object"] for v in d["sanitize"] if v["tool"] == "racecheck"][0]')
"$EVIDENT" show --object "$obj" >"$TEST_TMP/report" || fail "show --object $obj"
expect_contains "$TEST_TMP/report" "RACECHECK SUMMARY"
# what each tool watched: the sealed replay of the timed plan
expect_eq "$(jget "$TEST_TMP/rec.json" '" ".join(sorted(set(v["watched"] for v in d["sanitize"])))')" "sealed replay" \
	"smem_race's tools watched"
expect_eq "$(jget "$TEST_TMP/rec.json" '" ".join(sorted(set(str(v["output"]["passed"]) for v in d["sanitize"])))')" "True" \
	"smem_race's sanitized outputs"
# red team 56: launch() cannot show the tool another kernel than the plan
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-sanhide.yaml
expect_exit 0 "$EVIDENT" ls --json
cp "$TEST_TMP/out" "$TEST_TMP/ls.json"
expect_eq "$(verdicts correct cuda-sanhide)" "racecheck=True" "cuda-sanhide correct's verdict"
expect_eq "$(verdicts hide cuda-sanhide)" "racecheck=False" "hide (racy under capture only): the replay races"
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["watched"]')" "sealed replay" "hide's racecheck watched"
expect_eq "$(verdicts empty cuda-sanhide)" "racecheck=False" "empty (nothing uncaptured): the replay races"
expect_eq "$(verdicts empty_host cuda-sanhide)" "racecheck=False" "empty_host (trust: host, nothing under the tool)"
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["watched"]')" "in process" "empty_host's racecheck watched"
# (empty_host: output.passed False where its launch() found the sanitizer,
# else its hazards; the report object holds its "rt56 env" lines)
# red team 57: the sanitized run is the main job's sequence (its seeds,
# warm-up and timed samples), every launch of the kernel's instrumented
# (a drawn window of 4 missed smem_race's races on an H200, call 5 of
# 2026-12-01): rt57_count MODE 1, racy from its
# process's launch 2 on, fails racecheck sealed and trust: host alike
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-sanfull.yaml
expect_exit 0 "$EVIDENT" ls --json
cp "$TEST_TMP/out" "$TEST_TMP/ls.json"
expect_eq "$(verdicts correct cuda-sanfull)" "racecheck=True" "cuda-sanfull correct's verdict"
win() { # the window of the record in rec.json: launches of, and the sequence
	jget "$TEST_TMP/rec.json" '"%s of %d, %s" % ("all" if d["sanitize"][0]["window"]["launches"] == d["sanitize"][0]["window"]["of"] else d["sanitize"][0]["window"]["launches"], d["sanitize"][0]["window"]["of"], d["sanitize"][0]["window"]["of"] == 1 + d["sanitize"][0]["window"]["warmup_samples"] + d["sanitize"][0]["window"]["samples"])'
}
case "$(win)" in "all of "*", True") ;; *) fail "correct's window: $(win) (every launch of its seed, warm-up and 10 samples)" ;; esac
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["window"]["samples"]')" "10" "the sanitized run's timed samples"
expect_eq "$(verdicts count cuda-sanfull)" "racecheck=False" "count (a launch ticket, racy from launch 2): the replay's sequence races"
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["watched"]')" "sealed replay" "count's racecheck watched"
case "$(win)" in "all of "*", True") ;; *) fail "count's window: $(win)" ;; esac
expect_eq "$(verdicts count_host cuda-sanfull)" "racecheck=False" "count_host (trust: host): the in-process sequence races"
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["watched"]')" "in process" "count_host's racecheck watched"
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["sanitize"][0]["output"]["passed"]')" "True" "count_host's sanitized outputs"
