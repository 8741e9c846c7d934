# t0272 - red team 183 (tests/fixtures/adversary/host/redteam183/README.md):
# an honest kernel with a pool of threads parked between calls pays, in
# every timed sample, the wake of each thread at the sample's SIGCONT and
# each thread's own stop before the sample's time ends; the handshake the
# comparison allows (stats.h rule 0e) was the single-threaded worker's,
# so naive's arithmetic with 64 parked threads read 0.27x "slower" than
# without them (2 of 2).  Now the calibration measures a parked thread's
# cost in the worker's box before the kernel loads (HOST_POOL), each run
# records it (timing.method.thread_cost_us) and its median sample's
# threads (threads_median), and a side's handshake grows by them.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress --repeats 3 tests/fixtures/specs/host-redteam183-idlepool.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "the runs do not record what a parked thread costs"
import json, sys
seen = {}
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    d = json.load(open(f))
    m = d["timing"]["method"]
    c = m["thread_cost_us"]
    assert 0 <= c < 1000, c
    seen.setdefault(d["variant"], set()).add(m["threads_median"])
assert seen["pool64"] == {65.0} and seen["pool0"] == {1.0} and seen["naive"] == {1.0}, seen
PY
# pool64 is naive's arithmetic: no verdict of slower (its gap is the
# threads' cost); a faster one would be a new hole
expect_match "$TEST_TMP/out" "^pool64 +ok "
expect_not_contains "$TEST_TMP/out" "faster"
# (one cost a thread is a model, red team 186: the calibration reads 4.7
# to 13 us a thread from run to run, a kernel's own parked threads 10-26,
# so pool64 can still read slower: README says this stays open; CI of
# a6bec95e8, sanitized pass, 0.296x at a calibrated 5.1 us)
grep -E "^pool64 " "$TEST_TMP/out" | grep -q "slower" &&
	skip "pool64 read slower (the open part, red team 186) at load $(cut -d' ' -f1 /proc/loadavg): $(grep -E '^pool64 ' "$TEST_TMP/out")"
exit 0
