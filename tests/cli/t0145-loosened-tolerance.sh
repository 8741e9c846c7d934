# A spec's tolerance far looser than the problem's (red team 13, const_out:
# a softmax that writes 1/C everywhere was ok and 3.8x "faster" under
# `correctness: {atol: 1, rtol: 1, rel_l2: 1}`, the problem's 1e-5, and
# nothing but `show` said so).  Now the batch notes it, the record keeps
# the problem's own rule (correctness.tolerance.problem), and the audit
# does not call such a run validated.  Before: no note, "supported".
. "$REPO/tests/cli/lib.sh"
mkrepo
sed 's/samples: 100/samples: 20/; s/repeats: 3/repeats: 1/' tests/fixtures/specs/host-redteam13-tol.yaml > "$TEST_TMP/tol.yaml"
# const_out passes the spec's loosened rule and is refused by the entries
# softmax judges alone (softmax_focus, red team 304), which a spec does
# not loosen: its expect is wrong_output, so the run exits 0
"$EVIDENT" run --no-progress "$TEST_TMP/tol.yaml" > "$TEST_TMP/out" 2>&1 || fail "evident run exited $?"
expect_match "$TEST_TMP/out" "the spec loosens the problem's tolerance: atol 1 against 1e-05"
python3 - "$EVIDENT_STORE"/runs/*.json <<'PY' || fail "the problem's tolerance in the record"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:] if not f.endswith("-batch.json")]
assert len(runs) == 2, len(runs)
for r in runs:
    t = r["correctness"]["tolerance"]
    assert t["rel_l2"] == 1 and t["problem"]["rel_l2"] == 1e-5, t
PY
printf 'x <!-- claim: validated experiment=host-redteam13-tol variant=const_out -->\n' > "$TEST_TMP/c.md"
"$EVIDENT" audit "$TEST_TMP/c.md" > "$TEST_TMP/audit" 2>&1
expect_match "$TEST_TMP/audit" "contradicted: validated host-redteam13-tol/const_out: "
# red team 14's tol9_deg3: a degree-3 exp under 9.9x the problem's rule
# (under a 10x threshold it was validated); its twin tol9_deg5 passes the
# problem's own rule, and so stays validated under the same spec
sed 's/samples: 300/samples: 20/; s/repeats: 3/repeats: 1/; s/samples: 100/samples: 20/' \
	tests/fixtures/specs/host-redteam14-tol.yaml > "$TEST_TMP/tol9.yaml"
"$EVIDENT" run --no-progress "$TEST_TMP/tol9.yaml" > "$TEST_TMP/out9" 2>&1 || fail "evident run (tol9) exited $?"
printf 'x <!-- claim: validated experiment=host-redteam14-tol variant=tol9_deg3 -->\n\ny <!-- claim: validated experiment=host-redteam14-tol variant=tol9_deg5 -->\n' > "$TEST_TMP/c9.md"
"$EVIDENT" audit "$TEST_TMP/c9.md" > "$TEST_TMP/audit9" 2>&1
expect_match "$TEST_TMP/audit9" "contradicted: validated host-redteam14-tol/tol9_deg3: "
expect_match "$TEST_TMP/audit9" "supported: validated host-redteam14-tol/tol9_deg5: "
exit 0
