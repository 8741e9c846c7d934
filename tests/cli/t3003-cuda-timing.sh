# t3003 - CUDA timing on a GPU: adaptive sampling of a CUDA graph of 10
# launches records its method (events, hot cache, adaptive, graph, batch
# 10, the stdrel reached) with at least 10 samples.
. "$REPO/tests/cli/lib.sh"
need_gpu
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
cd "$REPO"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-timing.yaml
expect_exit 0 "$EVIDENT" ls --experiment cuda-timing
id=$(awk '$3 == "base" { print $1 }' "$TEST_TMP/out")
expect_exit 0 "$EVIDENT" show --json "$id"
for want in '"clock":"cuda_events"' '"launch":"graph"' '"batch":10' '"mode":"adaptive"' '"cache":"hot"'; do
	tr -d ' \n' <"$TEST_TMP/out" | grep -qF "$want" || fail "record lacks $want"
done
expect_exit 0 "$EVIDENT" show --samples "$id"
[ "$(wc -l <"$TEST_TMP/out")" -ge 10 ] || fail "fewer than 10 samples"
