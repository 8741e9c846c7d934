# The last sample of a fixed count is a timing one when none before it
# was (scramble.h evs_force_timing): each timed sample's distribution is
# drawn alone, a stress one with chance 1/4, so `samples: 4` drew four
# stress samples once in 256 runs and such a run was `ok` with no time
# (CI's t0122: a search's base with no median).  Here `samples: 1`,
# 16 repeats of gemm (whose `cancel` and `large` are stress
# distributions): before, a run had no timing sample with chance 1/4
# (all 16 timed: 1 in 100); now each has its one.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > "$TEST_TMP/one.yaml" <<'Y'
name: t0153-one
question: Does every run of one sample have a time?
problem: gemm
backend: host
shape: {M: 16, N: 16, K: 16}
variants:
  naive: {kernel: kernels/gemm/naive.c, expect: ok}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 1, cache: hot}
limits: {timeout_s: 60}
repeats: 16
Y
expect_exit 0 "$EVIDENT" run --no-progress "$TEST_TMP/one.yaml"
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "a run of one sample without a time"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
assert len(runs) == 16, len(runs)
for r in runs:
    assert r["outcome"] == "ok", (r["run_id"], r["outcome"])
    s = r["timing"]["stats"]
    assert s is not None and s["median"] is not None, (r["run_id"], r["timing"].get("by_dist"))
PY
exit 0
