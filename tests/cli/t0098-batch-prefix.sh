# t0098: a batch's timestamp prefix names the batch (issue 23, item 8).  A
# batch id and its first runs' ids start with the same timestamp to the
# second (the runs start within it), so `show 20261125T084154` was always
# "ambiguous" between the batch and its own runs.  A prefix that names
# one batch and otherwise only runs of that batch now names the batch; a
# prefix shared by two batches stays ambiguous and lists them; a run's
# own longer prefix still names the run.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
B=$(ls artifacts/runs | grep -- '-batch.json$')
B=${B%.json}
# the longest prefix the batch shares with one of its runs (the timestamp,
# to the second as a rule; shorter when the batch began just before a
# minute or hour turned and its runs after it, which once failed this test)
P=$(python3 - "$B" artifacts/runs <<'PY'
import json, os, sys
b, d = sys.argv[1], sys.argv[2]
runs = json.load(open(os.path.join(d, b + ".json")))["variants"]
best = ""
for v in runs:
    for r in v["runs"]:
        p = os.path.commonprefix([b, r])
        best = p if len(p) > len(best) else best
print(best)
PY
)
[ "${#P}" -ge 9 ] || fail "the batch and its runs share only '$P' (not even the day)"
expect_exit 0 "$EVIDENT" show "$P"
expect_contains "$TEST_TMP/out" "batch      $B (evident-batch/2)"
# a run's whole id, and a prefix only it has, still name the run
R=$(jget "artifacts/runs/$B.json" 'd["variants"][0]["runs"][0]')
expect_exit 0 "$EVIDENT" show "$R"
expect_contains "$TEST_TMP/out" "run        $R (evident-run/2)"
# two batches under one prefix: ambiguous, and both are named
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
B2=$(ls artifacts/runs | grep -- '-batch.json$' | grep -v "^$B.json" )
B2=${B2%.json}
Q=$(python3 -c 'import os,sys; print(os.path.commonprefix(sys.argv[1:]))' "$B" "$B2")
[ -n "$Q" ] || fail "the two batches share no prefix"
expect_exit 2 "$EVIDENT" show "$Q"
expect_contains "$TEST_TMP/err" "is ambiguous: it names"
expect_contains "$TEST_TMP/err" "$B"
expect_contains "$TEST_TMP/err" "$B2"
