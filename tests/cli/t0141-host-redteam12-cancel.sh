# The twelfth red team's gemm probe (tests/fixtures/adversary/host/
# redteam12/README.md, cancel_half): gemm's `cancel` makes row k + K/2 of
# B minus row k, and the kernel that sees it computes C over half of K,
# exactly.  At 8964a0b a third of the host's timed samples were `cancel`
# and every sample was in the time: ok, and its median moved by the
# cancel samples (a third at about a third of the time; "faster" in low
# load).  Now only the problem's timing distributions (gemm: uniform, the
# default) make the time, three samples in four on average (each sample's
# distribution drawn at random since red team 13); the stress samples are
# timed, checked and recorded apart (timing.by_dist), and a stress
# distribution that is fast is named in a note.  The checks below are on
# what was recorded and filtered, not on close timings: `cancel` at about
# 0.3x of uniform's median against a note threshold of 0.67x.  Since red
# team 19 `cancel` is filled as `uniform` (problems/gemm.c), so
# cancel_half finds no pairs: it is the naive product everywhere and no
# distribution is fast for it; large_once (redteam19g/large_once.c)
# carries the question now, `large` (told by one value) at about 0.5x.
. "$REPO/tests/cli/lib.sh"
runs_alone "a ratio of medians by distribution, and a verdict between two kernels"
mkrepo
timeout -s KILL 200 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam12-cancel.yaml > "$TEST_TMP/out" 2>&1
rc=$?
[ "$rc" != 137 ] || fail "evident run still ran after 200 s"
expect_match "$TEST_TMP/out" "^honest +ok"
expect_match "$TEST_TMP/out" "^cancel_half +ok"
expect_match "$TEST_TMP/out" "^large_once +ok"
# the summary says what the time was measured on, and names the fast stress distribution
expect_match "$TEST_TMP/out" "timed on uniform: [0-9]+ of (300 samples a run|900 samples in 3 runs)"
# the note is a ratio of medians: in a busy period (make test's end, load
# 3.9 on 2 CPUs, 2026-12-02: honest's median CI [227, 651] us) the run
# says its comparison spans one, and the ratio is not checked, nor the
# fast stress medians below (BUSY); the records' shape still is
busy=0
if ! grep -qE "large_once: large 0\.[0-9]+x of uniform's median" "$TEST_TMP/out" &&
	grep -q "large_once vs honest: the comparison spans a busy period" "$TEST_TMP/out"; then
	busy=1
	echo "note: large_once's fast stress distribution not named, in a busy period (load $(cut -d' ' -f1 /proc/loadavg)): not checked"
else
	expect_match "$TEST_TMP/out" "large_once: large 0\.[0-9]+x of uniform's median: speed depends on the input; not in the time"
fi
expect_not_contains "$TEST_TMP/out" "honest: cancel"
expect_not_contains "$TEST_TMP/out" "cancel_half: cancel 0."
BUSY=$busy python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "timing.by_dist and the filtered samples in the records"
import json, os, re, sys
files = sys.argv[1:]
runs = [json.load(open(f)) for f in files if not f.endswith("-batch.json")]
batch = [json.load(open(f)) for f in files if f.endswith("-batch.json")][0]
assert len(runs) == 9, len(runs)
fast = 0
for r in runs:
    t = r["timing"]
    bd = t["by_dist"]
    assert set(bd) == {"uniform", "large", "cancel"}, bd
    # the time is uniform's samples alone: three in four of the 300 on
    # average (binomial: 225 +- 7.5, so 185 .. 265 is over 5 sd)
    assert bd["uniform"]["timing"] and not bd["cancel"]["timing"] and not bd["large"]["timing"], bd
    assert 185 <= bd["uniform"]["n"] <= 265 and bd["uniform"]["n"] + bd["large"]["n"] + bd["cancel"]["n"] == 300, bd
    assert bd["large"]["n"] > 0 and bd["cancel"]["n"] > 0, bd
    assert t["n"] == bd["uniform"]["n"], t["n"]
    assert abs(t["stats"]["median"] - bd["uniform"]["median_us"]) < 1e-6 * bd["uniform"]["median_us"], (t["stats"]["median"], bd)
    # the stress samples were checked too (the draw's classes: every distribution)
    timed = {c["dist"] for c in r["correctness"]["checks"] if c.get("phase") == "timed"}
    assert timed == {"uniform", "large", "cancel"}, timed
    if r["variant"] == "large_once":
        fast += bd["large"]["median_us"] < 0.67 * bd["uniform"]["median_us"]
assert fast >= 2 or os.environ.get("BUSY") == "1", fast  # the cheat's speed is there, in by_dist
for row in batch["variants"]:
    assert re.fullmatch(r"uniform: [0-9]+ of (300 samples a run|900 samples in 3 runs)", row["timed_on"]), row
    c = row.get("comparison") or {}
    if row["variant"] in ("cancel_half", "large_once"):
        # uniform is the naive product for both (large_once: twice): no speed to find
        assert c.get("verdict") != "faster", c
# (in a busy period the summary did not name it, and nor does the batch:
# the same notes; CI's sanitized pass at load 115, 2026-12-04)
assert os.environ.get("BUSY") == "1" or any("large_once: large 0." in n for n in batch["notes"]), batch["notes"]
PY
# show says it too
run=$(python3 -c 'import json,sys; [print(json.load(open(f))["run_id"]) for f in sys.argv[1:] if not f.endswith("-batch.json") and json.load(open(f))["variant"] == "large_once"]' "$EVIDENT_STORE"/runs/*.json | head -1)
expect_exit 0 "$EVIDENT" show "$run"
# (a sample over 3x the timing median is counted beside it: under load, 2
# of 34 cancel samples were, CI's sanitized pass 2026-12-04 at load 3)
expect_match "$TEST_TMP/out" "^  by dist  cancel [0-9]+ samples, median [0-9.]+ us \(stress: not in the time(, over 3x the timing median: [^)]*)?\); large [0-9]+ samples"
expect_match "$TEST_TMP/out" "uniform [0-9]+ samples, median"
expect_match "$TEST_TMP/out" "[0-9]+ samples \(the timing distributions' of 300 timed\)"
exit 0
