#!/usr/bin/env bash
# --json prints exactly one JSON object, one line, with the documented keys in order.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to parse the JSON"
printf '%s\n' 10.2 10.4 10.1 10.3 10.6 10.5 10.0 10.7 10.9 10.8 >a.txt
printf '%s\n' 9.1 9.3 9.0 9.2 9.5 9.4 8.9 9.6 9.8 9.7 >b.txt
expect_exit 0 "$EVIDENT" stats --json a.txt b.txt
expect_eq "$(wc -l <"$TEST_TMP/out")" 1 "one line"
python3 - "$TEST_TMP/out" <<'END' || fail "JSON check failed"
import json, math, sys
j = json.load(open(sys.argv[1]))
assert list(j) == ["a", "b", "mann_whitney", "cliffs_delta", "speedup", "means", "verdict", "small_n",
                   "verdict_reason", "min_detectable_speedup", "repeats", "test_sign",
                   "resamples", "seed", "confidence", "alpha", "threshold"], list(j)
for side in ("a", "b"):
    assert list(j[side])[:7] == ["n", "median", "mean", "min", "max", "stdev", "median_ci"], list(j[side])
assert j["a"]["n"] == 10 and j["a"]["median"] == 10.45 and j["b"]["median"] == 9.35
assert j["a"]["min"] == 10.0 and j["a"]["max"] == 10.9
assert list(j["mann_whitney"]) == ["u", "p", "p_adjusted", "method"]
assert j["mann_whitney"]["u"] == 100 and j["mann_whitney"]["method"] == "exact"
assert abs(j["mann_whitney"]["p"] - 2 / 184756) < 1e-15   # 2 / choose(20, 10)
assert list(j["cliffs_delta"]) == ["delta", "ci", "magnitude", "method"]
assert j["cliffs_delta"]["delta"] == 1 and j["cliffs_delta"]["magnitude"] == "large"
assert list(j["speedup"]) == ["ratio", "ci", "method"]
assert abs(j["speedup"]["ratio"] - 10.45 / 9.35) < 1e-12
# the means of every sample (rule 4 of the verdict table), Welch's p
assert list(j["means"]) == ["ratio", "p"]
assert abs(j["means"]["ratio"] - 10.45 / 9.35) < 1e-12 and j["means"]["p"] < 1e-5
lo, hi = j["speedup"]["ci"]
assert 1.01 < lo < j["speedup"]["ratio"] < hi, (lo, hi)
assert j["verdict"] == "faster" and j["small_n"] is False
assert j["verdict_reason"] == "significant, speedup CI above the noise band, Cliff's delta CI above 0"
assert j["repeats"] == [1, 1] and j["a"]["repeats"] == 1 and j["b"]["repeats"] == 1
assert abs(j["min_detectable_speedup"] - 1.01 * math.sqrt(hi / lo)) < 1e-12
assert j["resamples"] == 10000 and j["seed"] == 1 and j["confidence"] == 0.95
END
