# Red team 27 (tests/fixtures/adversary/host/redteam27/README.md): with
# 2000 idle threads made in init(), a helper thread's kernel-side copy of
# 256 MiB after the done line ends while the parent lists and reads the
# threads, before the CPU rule's window opens (still open: README, "Still
# out of reach"), and the CPU floor allowed a flat 100 us for each thread
# known at the go: 200 ms a sample, so the floor was off (0 samples
# charged, ok).  Now each thread is allowed what it used in the sample, up
# to 100 us, read at the go and at the freeze: the copy's CPU is charged
# to most samples.
. "$REPO/tests/cli/lib.sh"
runs_alone "its cheat races the parent's stop"
mkrepo
# 12 samples, not the spec's 30 (each copies 256 MiB beside 2000 threads)
sed 's/samples: 30/samples: 12/' tests/fixtures/specs/host-redteam27-helper256.yaml > "$TEST_TMP/h.yaml" || fail "sed"
timeout -s KILL 300 "$EVIDENT" run --no-progress --only crowd "$TEST_TMP/h.yaml" > "$TEST_TMP/out" 2>&1
[ $? != 137 ] || fail "evident run still ran after 300 s"
expect_match "$TEST_TMP/out" "^crowd +(ok|escaped_work) "
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "the copy's CPU was not charged"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
runs = [r for r in runs if r["variant"] == "crowd"]
assert len(runs) == 1, len(runs)
r = runs[0]
if r["outcome"] != "escaped_work":
    a = r["timing"]["method"]["after_done"]
    c = a["charged"]
    assert c["samples"] * 2 > a["samples_read"], (c, a["samples_read"])
PY
exit 0
