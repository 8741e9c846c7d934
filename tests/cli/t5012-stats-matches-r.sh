#!/usr/bin/env bash
# The command's U and p agree with R's wilcox.test on the checked-in reference
# data sets (tests/stats/reference.json), exact and normal regimes alike.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the reference file"
python3 - "$REPO/tests/stats/reference.json" "$EVIDENT" <<'END' || fail "mismatch with R"
import json, math, subprocess, sys
ref = json.load(open(sys.argv[1]))
n = 0
for c in ref["cases"]:
    if len(c["a"]) < 2 or len(c["b"]) < 2:
        continue
    for side in ("a", "b"):
        open(side + ".txt", "w").write("\n".join(repr(v) for v in c[side]) + "\n")
    out = subprocess.run([sys.argv[2], "stats", "--json", "--resamples", "200", "a.txt", "b.txt"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)["mann_whitney"]
    want_p = c["r"]["p"] if c["r"]["p"] is not None else 1.0
    assert j["u"] == c["r"]["u"], (c["name"], j["u"], c["r"]["u"])
    assert abs(j["p"] - want_p) <= 1e-9 * want_p + 1e-300, (c["name"], j["p"], want_p)
    assert j["method"] == ("exact" if c["r"]["exact"] == 1 else "normal"), c["name"]
    n += 1
print("%d data sets agree with R" % n)
assert n >= 20
END
