# Red team 31 (tests/fixtures/adversary/host/redteam31/README.md): an
# honest rowsum that makes detached helper threads in every launch, each
# lowering a counter under a mutex as its last act, was escaped_work in
# 6 of 8 runs: a helper that has signalled may still be finishing its
# exit when the parent freezes the worker after the done line, and a
# thread the sample started that is alive at its freeze was counted as
# work outside the timed region (threads_delta).  Now such a thread counts
# only if it still lives at the next sample's freeze (red team 7's
# thread_crowd, left running each launch, still does: t0066); its CPU
# after the done line the CPU rule and the floor judge as before.
# Before the fix a detached run was ok about 1 time in 4, so the 4 runs
# here were all ok about once in 250; now each must be.
. "$REPO/tests/cli/lib.sh"
mkrepo
timeout -s KILL 300 "$EVIDENT" run --no-progress --repeats 2 --only spawn_detach4 --only spawn_detach16 \
	tests/fixtures/specs/host-redteam31-spawn.yaml > "$TEST_TMP/out" 2>&1
[ $? != 137 ] || fail "evident run still ran after 300 s"
expect_match "$TEST_TMP/out" "^spawn_detach4 +ok "
expect_match "$TEST_TMP/out" "^spawn_detach16 +ok "
expect_match "$TEST_TMP/out" "^spawn_join4 +ok "
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "a detached run counted a thread"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
runs = [r for r in runs if r["variant"].startswith("spawn_detach")]
assert len(runs) == 4, len(runs)
for r in runs:
    assert r["outcome"] == "ok", (r["run_id"], r["outcome"], r.get("reason"))
    # a helper still exiting a whole sample later is counted in that
    # sample (the sanitized pass beside another test, CI of 2026-12-07:
    # 1 sample of a run, outcome ok); escaped_work needs over half
    assert r["timing"]["escapes"]["host_threads"] <= 2, r["timing"]["escapes"]
PY
# Red team 39: a pool made once during the timing and kept (after 20
# serial launches; OpenMP's team first made by an if() region taken late)
# started a working thread in one sample, and that one sample made an
# honest kernel escaped_work.  A thread counts as the CPU after the done
# line does: in more than half the samples, at least five; the record
# still says how many samples started one.  One repeat, not the specs'
# 2: before the fix t20 and s20 were escaped_work in 2 of 2 repeats each
# (the pool is made at launch 21, in the timed samples, every run), so a
# run of each fails the same way (redteam39/README.md).
for s in tune omp; do
	"$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/host-redteam39-$s.yaml > "$TEST_TMP/r39-$s" 2>&1 ||
		{ cat "$TEST_TMP/r39-$s"; fail "host-redteam39-$s: an honest late pool was not ok"; }
done
python3 - artifacts/runs/*.json <<'PY' || fail "the late pools' records"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
late = [r for r in runs if r["experiment"].startswith("host-redteam39") and r["variant"] in ("t20", "s20")]
assert len(late) == 2, len(late)  # t20 and s20, a run each
assert all(r["outcome"] == "ok" for r in late), [(r["variant"], r["outcome"]) for r in late]
assert any(r["timing"]["escapes"]["host_threads"] > 0 for r in late), "no record says a sample started a thread"
PY
exit 0
