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
    assert r["timing"]["escapes"]["host_threads"] == 0, r["timing"]["escapes"]
PY
exit 0
