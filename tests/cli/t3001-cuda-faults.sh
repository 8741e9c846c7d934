# t3001 - the CUDA fault sweep on a GPU: each planted failure gets its own
# outcome (crashed with the CUDA error's name, nan, unwritten output,
# timeout), the sweep goes on past each one, and the controls are ok
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
mkrepo git
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-faults.yaml
for pair in "correct ok" "misaligned crashed" "oob_write crashed" "smem_race ok" "nan_out nan" \
	"partial unwritten_output" "spin timeout"; do
	set -- $pair
	grep -qE "^$1 +$2 " "$TEST_TMP/out" || { cat "$TEST_TMP/out"; fail "variant $1 is not $2"; }
done
expect_contains "$TEST_TMP/out" "misaligned address"
expect_contains "$TEST_TMP/out" "illegal memory access"
# the record of the control: device facts from the harness, timing method, resources
expect_exit 0 "$EVIDENT" ls --json
id=$(python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["variant"] == "correct"][0])' <"$TEST_TMP/out")
"$EVIDENT" show --json "$id" >"$TEST_TMP/rec.json" || fail "show --json"
# timing.clock auto: CUPTI's kernel clock where it loads, else CUDA events
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["timing"]["method"]["clock"] == ("cupti" if d["timing"]["method"]["cupti"] else "cuda_events")')" True
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["timing"]["method"]["cache"]')" cold
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["timing"]["method"]["l2_flush_bytes"] >= 2 * d["device"]["l2_bytes"]')" True
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["device"]["sm_count"] > 0')" True
expect_eq "$(jget "$TEST_TMP/rec.json" 'len(d["code"]["binary_sha256"])')" 64
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["build"]["resources"]["registers"] > 0')" True
