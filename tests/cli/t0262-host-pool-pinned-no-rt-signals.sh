# Host boxes are kept apart in a pool and queue no real-time signal (red
# team 158, tests/fixtures/adversary/host/redteam158/README.md).  Before:
#  - `--gpus N` (a count) left a host pool's slots unpinned, so a box's
#    untimed threads ran on the CPU its neighbour's timed samples used:
#    sighog, naive's arithmetic, heard through SigQ when the neighbour was
#    timed and spun then: "faster" 2.8x-3.4x in 11 of 23 batches, the
#    audit supporting it.  Now each slot of a count is pinned to a CPU of
#    its own (the first N the runner may use), and a count larger than
#    those CPUs is refused.
#  - a box could block a real-time signal and queue it to itself as often
#    as root's quota allowed: a count every box reads (SigQ), a channel to
#    the twin in the other slot, and sigfill took the whole quota from
#    every root process on the host.  Now a host box runs with
#    RLIMIT_SIGPENDING 0: rtqueue.c's init() fails where its tgkill of
#    SIGRTMIN+3 is queued, and is ok where it is refused.
. "$REPO/tests/cli/lib.sh"
command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
ncpu=$(taskset -pc $$ | sed 's/.*: *//' | python3 -c '
import sys
n = 0
for part in sys.stdin.read().strip().split(","):
    a, _, b = part.partition("-")
    n += int(b or a) - int(a) + 1
print(n)')
[ "$ncpu" -ge 2 ] || skip "the tests may run on $ncpu CPU: a pool of 2 pinned slots needs 2"
mkrepo
cat > "$TEST_TMP/s.yaml" <<'Y'
name: t0262
question: Are a host pool's slots pinned, and do its boxes queue no real-time signal?
problem: rowsum
backend: host
shape: {R: 256, C: 512}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c, expect: ok}
  rtq:   {kernel: tests/fixtures/host/rtqueue.c, expect: ok}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 10}
repeats: 2
Y
# serial: the box refuses the queued signal
expect_exit 0 "$EVIDENT" run --no-progress "$TEST_TMP/s.yaml"
expect_contains "$TEST_TMP/out" "rtq: ok (expected)"
# a pool of a count: each slot pinned to a CPU of its own, the box sees one
expect_exit 0 "$EVIDENT" run --no-progress --gpus 2 "$TEST_TMP/s.yaml"
expect_contains "$TEST_TMP/out" "rtq: ok (expected)"
pool=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$pool" ] || fail "no batch id"
python3 - "$pool" <<'PY' || fail "a slot of --gpus 2 was not pinned to a CPU of its own"
import json, os, sys
runs = 'artifacts/runs'
pins = set()
for f in os.listdir(runs):
    m = json.load(open(os.path.join(runs, f)))
    if m.get('kind') != 'variant' or m['batch_id'] != sys.argv[1]:
        continue
    ex = m['executor']
    print(m['variant'], ex.get('slot'), ex.get('pinned'))
    assert (ex.get('pinned') or '').startswith('cpu '), ex
    pins.add((ex['slot'], ex['pinned']))
assert len({p for _, p in pins}) == 2 and len(pins) == 2, pins
PY
run=$(python3 -c "import json; print(json.load(open('artifacts/runs/$pool.json'))['variants'][1]['runs'][0])")
expect_exit 0 "$EVIDENT" show --log "$run"
expect_contains "$TEST_TMP/out" "rtqueue: may run on 1 CPU(s)"
expect_contains "$TEST_TMP/out" "rtqueue: tgkill of a real-time signal: Resource temporarily unavailable"
# more slots than the runner's CPUs: refused, nothing run
expect_exit 2 "$EVIDENT" run --no-progress --gpus $((ncpu + 1)) "$TEST_TMP/s.yaml"
expect_contains "$TEST_TMP/err" "host slots asked for, but this runner may run on $ncpu CPUs: slots sharing a CPU"
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
expect_exit 2 taskset -c "$cpu" "$EVIDENT" run --no-progress --gpus 2 "$TEST_TMP/s.yaml"
expect_contains "$TEST_TMP/err" "2 host slots asked for, but this runner may run on 1 CPU: "
# rule 0d (red team 160): a host pool's comparisons hold no verdict, and
# the audit supports no verdict claim on them (ipihog made the host kernel
# work on its pinned neighbour's CPU through mbind and a global
# membarrier, refused since, and read 1.18x-1.33x "faster")
expect_exit 0 "$EVIDENT" run --no-progress --gpus 2 --repeats 4 "$TEST_TMP/s.yaml"
expect_contains "$TEST_TMP/out" "inconclusive (host pool)"
expect_contains "$TEST_TMP/out" "of runs in a host pool: other boxes ran beside them"
cat > claim.md <<'M'
rtq is no different from naive. <!-- claim: no_difference experiment=t0262 a=rtq b=naive -->
M
expect_exit 1 "$EVIDENT" audit claim.md
expect_contains "$TEST_TMP/out" "ran in a host pool (--gpus on the CPU), beside other boxes"
