# t0097: a host run's throughput and fraction of peak stand wherever its
# time does: the run summary, `show` of a run and of its batch, the export
# CSV and JSON Lines, and the run and batch records (issue 23, item 6).
# The peak is one core's, measured once per machine and cached under
# XDG_CACHE_HOME: the first run says so on stderr, the second reads the
# cache; a damaged cache file is named and measured again, and a cache
# that cannot be written costs the fraction nothing.  The record's numbers
# are the function of its own median and peak, and the CSV's are the
# batch record's.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
export XDG_CACHE_HOME="$TEST_TMP/xdg"
num='[0-9]+(\.[0-9]+)?'

expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
cp "$TEST_TMP/out" summary1.txt
expect_match "$TEST_TMP/err" "^cpu peak: one core of '.+' reaches $num GFLOP/s fp32 and $num GB/s \\(measured once, $num s; cached in $TEST_TMP/xdg/evident/cpu-peaks/[0-9a-f]{16}\\.json: delete it to measure again\\)\$"
cache=$(ls "$TEST_TMP"/xdg/evident/cpu-peaks/*.json)
[ "$(echo "$cache" | wc -l)" = 1 ] || fail "expected one cache file, got: $cache"

# the summary: a rate and its fraction of peak beside each median, the peak under the table
expect_match summary1.txt "^variant +outcome +median us +median 95% CI +min us +max us +GFLOP/s +%peak +GB/s +%peak +speedup"
for v in naive blocked; do
	expect_match summary1.txt "^$v +ok +$num +\\[$num, $num\\] +$num +$num +$num +$num% +$num +$num% "
done
expect_match summary1.txt "^peak: $num GFLOP/s fp32 and $num GB/s, one core of CPU '.+' \\(measured on host .+ at 20[0-9-]+T"

# the second run reads the cache: nothing measured, the same peak
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
expect_not_contains "$TEST_TMP/err" "cpu peak:"
expect_eq "$(grep '^peak: ' "$TEST_TMP/out" | sed 's/; read from the cache file .*//')" \
	"$(grep '^peak: ' summary1.txt | sed 's/; measured by this run)$//')" "the peak of the second run"
# the record names where its peak came from: measured by the run, or the
# cache file and its sha256 (red team 131: the file is the environment's)
expect_contains summary1.txt "; measured by this run)"
expect_contains "$TEST_TMP/out" "; read from the cache file $cache, sha256 $(sha256sum "$cache" | cut -d' ' -f1))"

# every record: throughput, the function of its own median, and the peak
python3 - artifacts/runs <<'PY' || fail "the records' throughput"
import json, os, sys
d = sys.argv[1]
n = 0
for f in sorted(os.listdir(d)):
    m = json.load(open(os.path.join(d, f)))
    t, pr = m["throughput"], m["problem"]
    assert t["no_peak"] is None and t["peak"]["scope"] == "one core" and t["peak"]["dtype"] == "fp32", t
    assert t["peak"]["gflops"] > 0 and t["peak"]["gbps"] > 0 and "FMA loop" in t["peak"]["method"], t
    if m["kind"] == "variant":
        med = m["timing"]["stats"]["median"]
        rows = [(med, t)]
    else:
        rows = [(v["stats"]["median"], v["throughput"]) for v in m["variants"]]
    for med, x in rows:
        assert x["gflops"] == pr["flops"] / med / 1e3, (f, x)
        assert x["gbps"] == pr["min_bytes"] / med / 1e3, (f, x)
        assert abs(x["frac_compute_peak"] - x["gflops"] / t["peak"]["gflops"]) < 1e-15, (f, x)
        assert abs(x["frac_bandwidth_peak"] - x["gbps"] / t["peak"]["gbps"]) < 1e-15, (f, x)
        n += 1
assert n == 8, n  # 2 batches x (2 runs + 2 rows)
PY

# show: a run (this repeat's median) and the batch (its table)
B=$(ls artifacts/runs | grep -- '-batch.json$' | head -1)
B=${B%.json}
R=$(jget "artifacts/runs/$B.json" 'd["variants"][0]["runs"][0]')
expect_exit 0 "$EVIDENT" show "$R"
expect_match "$TEST_TMP/out" "^  throughput $num GFLOP/s \\($num% of peak\\), $num GB/s \\($num% of peak\\)\$"
expect_match "$TEST_TMP/out" "^  peak     $num GFLOP/s fp32 and $num GB/s, one core of CPU '.+' \\(measured on host "
expect_exit 0 "$EVIDENT" show "$B"
expect_match "$TEST_TMP/out" "^peak       $num GFLOP/s fp32 and $num GB/s, one core of CPU"
expect_match "$TEST_TMP/out" "^variant +outcome +repeats +median us \\[95% CI\\] +GFLOP/s \\(%peak\\) +GB/s \\(%peak\\) +speedup"
expect_match "$TEST_TMP/out" "^naive \\(baseline\\) +ok +1/1 +$num \\[$num, $num\\] +$num \\($num%\\) +$num \\($num%\\) +baseline"

# export: the CSV's columns are the batch record's numbers, and the JSON Lines' the same
expect_exit 0 "$EVIDENT" export --out ex
python3 - artifacts/runs <<'PY' || fail "the export's throughput"
import csv, json, os, sys
d = sys.argv[1]
batches = {f[:-5]: json.load(open(os.path.join(d, f))) for f in os.listdir(d) if f.endswith("-batch.json")}
rows = list(csv.DictReader(open("ex/summaries.csv")))
lines = [json.loads(l) for l in open("ex/summaries.jsonl")]
assert len(rows) == len(lines) == 4, (len(rows), len(lines))
for r, j in zip(rows, lines):
    b = batches[r["batch_run_id"]]
    v = [x for x in b["variants"] if x["variant"] == r["variant"]][0]["throughput"]
    pk = b["throughput"]["peak"]
    for k in ("gflops", "gbps", "frac_compute_peak", "frac_bandwidth_peak"):
        assert r[k] and float(r[k]) == v[k] and j[k] == v[k], (k, r[k], j[k], v[k])
    assert float(r["peak_gflops"]) == pk["gflops"] and float(r["peak_gbps"]) == pk["gbps"], r
    assert r["peak_of"] == "one core of CPU " + pk["device"] and r["peak_source"] == pk["source"], r
    assert r["no_peak"] == "" and j["no_peak"] is None, r
PY
expect_exit 0 "$EVIDENT" verify

# a damaged cache file is named, measured again and rewritten
echo '{"format": "evident-cpu-peak/1", "gflops": "fast"}' >"$cache"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/err" "warning: the cached CPU peak '$cache' is not a measurement (expected evident-cpu-peak/1 with positive gflops and gbps); measuring again"
expect_contains "$TEST_TMP/err" "cpu peak: one core of"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["gflops"] > 0 and d["gbps"] > 0, d' "$cache" ||
	fail "the damaged cache file was not rewritten"

# a cache that cannot be written: a warning, and the run still has its peak
touch notadir
XDG_CACHE_HOME="$TEST_TMP/repo/notadir" expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/err" "warning: cannot cache the CPU peak (cannot create '$TEST_TMP/repo/notadir/evident"
expect_contains "$TEST_TMP/err" "every run measures it again"
expect_match "$TEST_TMP/out" "^peak: $num GFLOP/s fp32 and $num GB/s, one core of CPU"
