# Red team 13's class 1 on the host (docs/redteam13-cuda.md): a kernel
# that recognises the stress distribution built to refuse its shortcut and
# is honest only there.  nomax_sniff (tests/fixtures/adversary/host/
# redteam13d/nomax_sniff.c) skips softmax's row max unless |x[0]| >= 32.
# When softmax's `large` offset every row by +-(80..120) that was every
# `large` row, and the kernel was ok.  Now half of `large`'s rows are
# small but for 1..8 elements at 80..120 in random columns: nan, on
# `large` inputs, and the honest kernel stays ok.
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam13d.yaml > "$TEST_TMP/out" 2>&1
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a variant did not get its expected outcome"
expect_match "$TEST_TMP/out" "^honest +ok "
expect_match "$TEST_TMP/out" "^nomax_sniff +nan"
r=$(grep -l '"variant": "nomax_sniff"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of nomax_sniff"
python3 - "$r" <<'P' || fail "nomax_sniff's failing checks"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [c for c in d["correctness"]["checks"] if not c["pass"]]
# every failing check is on `large` inputs, NaN where the hidden large
# elements overflowed; the other distributions pass
assert bad and all(c["dist"] == "large" and c["nan_count"] > 0 for c in bad), bad
assert all(c["pass"] for c in d["correctness"]["checks"] if c["dist"] != "large")
P
exit 0
