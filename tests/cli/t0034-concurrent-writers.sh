# four runners writing to one store at the same time, 10 runs each: 40 variant records and 4 batches, verify passes, and the chain is a line (every prev distinct, one first manifest)
#
# It runs beside other tests (not runs_alone): every check is an invariant
# of the store (counts, the chain, verify, no lock left), none a time or a
# verdict.  The four writers start together and each commits ten runs over
# seconds, so they race for HEAD.lock however busy the machine is; a busy
# machine stretches all four alike, and a commit holds the lock for
# milliseconds against store_lock_wait_s (120 s) and STORE_LOCK_STALE_S (60 s).
# The ten runs are ten repeats of one variant: one build, which the four
# writers race to publish into the build cache, where a grid of ten cost
# forty compiles (13 to 16 s of CPU, 8 now; 5 with cache: hot, since a cold
# host run flushes 64 MiB a sample) and checked nothing more here
# (grids have tests of their own).
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/c.yaml <<'Y'
name: c
problem: attention_fwd
shape: {B: 1, H: 1, S: 8, D: 8}
kernel: kernels/host/attn_blocked.c
baseline: base
variants:
  base: {BLOCK_M: 4, BLOCK_N: 2}
correctness: {seeds: 1}
timing: {samples: 2, warmup_ms: 0, cache: hot}
repeats: 10
Y
pids=()
for w in 1 2 3 4; do
	"$EVIDENT" run --no-progress experiments/c.yaml > "$TEST_TMP/w$w" 2>&1 &
	pids+=($!)
done
for w in 1 2 3 4; do
	wait ${pids[$((w - 1))]} || { cat "$TEST_TMP/w$w"; fail "runner $w failed"; }
done
n=$(grep -l '"kind": "variant"' artifacts/runs/*.json | wc -l)
expect_eq "$n" 40 "variant records"
expect_exit 0 "$EVIDENT" verify
expect_not_contains "$TEST_TMP/out" "tree"
# a line: 44 manifests, 44 distinct prevs, one of them null, each other one a digest
python3 - artifacts/runs/*.json > "$TEST_TMP/chain" <<'P' || { cat "$TEST_TMP/chain"; fail "the chain is not a line"; }
import json, sys
ms = [json.load(open(f)) for f in sys.argv[1:]]
prevs = [m["prev"] for m in ms]
digests = {m["digest"] for m in ms}
print(len(ms), "manifests,", len(set(prevs)), "distinct prevs,", prevs.count(None), "null")
assert len(ms) == 44 and len(set(prevs)) == len(ms) and prevs.count(None) == 1
assert all(p in digests for p in prevs if p is not None)
P
[ ! -e artifacts/HEAD.lock ] || fail "a lock was left behind"
