# t3003 - CUDA timing on a GPU: adaptive sampling of a CUDA graph of 10
# launches records its method (its clock, hot cache, adaptive, graph, batch
# 10, the stdrel reached), the event clock beside it, and at least 10 samples
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
mkrepo git
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-timing.yaml
expect_exit 0 "$EVIDENT" ls --json
id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["run_id"])' <"$TEST_TMP/out")
"$EVIDENT" show --json "$id" >"$TEST_TMP/rec.json" || fail "show --json"
m='d["timing"]["method"]'
# timing.clock auto: CUPTI's kernel clock where it loads, else CUDA events
clock=$(jget "$TEST_TMP/rec.json" "'cupti' if $m[\"cupti\"] else 'cuda_events'")
expect_eq "$(jget "$TEST_TMP/rec.json" "$m[\"clock\"], $m[\"cache\"], $m[\"mode\"], $m[\"launch\"], $m[\"batch\"]")" \
	"('$clock', 'hot', 'adaptive', 'graph', 10)"
# the CUDA-event clock is kept beside the kernel clock
expect_eq "$(jget "$TEST_TMP/rec.json" 'd["timing"]["clock"] != "cupti" or len(d["timing"]["event_samples_object"]) == 64')" True
expect_eq "$(jget "$TEST_TMP/rec.json" "$m[\"l2_flush_bytes\"]")" 0
expect_eq "$(jget "$TEST_TMP/rec.json" "$m[\"converged\"] or $m[\"capped\"]")" True
expect_exit 0 "$EVIDENT" show --samples "$id"
[ "$(grep -c . "$TEST_TMP/out")" -ge 10 ] || fail "fewer than 10 samples"
