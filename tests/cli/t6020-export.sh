# t6020: 'evident export' writes tidy samples, summaries (CSV and JSON Lines),
# Google Benchmark JSON and a notebook, deterministically.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
runs_alone "the fixture's slow variant must be judged slower: a verdict timed on the CPU"
setup_tiny_repo
run_tiny tiny.yaml
expect_exit 0 "$EVIDENT" export --out ex
expect_eq "$(head -1 ex/samples.csv)" 'run_id,experiment,batch_id,variant,repeat,outcome,kernel,kernel_sha256,CRASH,REPEAT,clock,sample_index,value,unit'
expect_eq "$(tail -n +2 ex/samples.csv | wc -l)" 90 "samples that make the time: 2 variants x 3 repeats x 15 of 20 (one in four of a stress distribution)"
expect_eq "$(wc -l <ex/samples.jsonl)" 90
ksha=$(sha256sum kernels/tiny_attn.c | cut -d' ' -f1)
expect_eq "$(grep -c ",tiny,.*,slow,1,ok,kernels/tiny_attn.c,$ksha,0,6,host," ex/samples.csv)" 15 "timing samples of slow's repeat 1"
expect_eq "$(tail -n +2 ex/summaries.csv | wc -l)" 2
expect_contains ex/summaries.csv ',slow,'
expect_contains ex/summaries.jsonl '"verdict":"slower"'
# the kernel columns, and p is the Holm-adjusted p (p_raw the test's own)
head -1 ex/summaries.csv | tr , '\n' >cols
for c in kernel kernel_sha256 repeats p p_raw verdict_reason mde; do grep -qx "$c" cols || fail "summaries.csv has no column '$c'"; done
grep -qx p_adjusted cols && fail "summaries.csv still has 'p_adjusted'"
python3 - "$ksha" <<'PY' || fail "summaries rows"
import csv, sys
rows = {r["variant"]: r for r in csv.DictReader(open("ex/summaries.csv"))}
assert rows["slow"]["kernel"] == "kernels/tiny_attn.c" and rows["slow"]["kernel_sha256"] == sys.argv[1], rows["slow"]
assert rows["slow"]["p"] and rows["slow"]["p_raw"] and rows["base"]["p"] == "", rows
PY
expect_contains ex/benchmark.json '"name": "tiny/base"'
expect_contains ex/benchmark.json '"aggregate_name": "median"'
expect_contains ex/evident.ipynb '"nbformat": 4'
if command -v python3 >/dev/null; then
	python3 - <<'PY' || fail "export is not valid JSON"
import json
for l in open("ex/samples.jsonl"): json.loads(l)
b = json.load(open("ex/benchmark.json"))
assert sum(1 for x in b["benchmarks"] if x["run_type"] == "iteration") == 90
nb = json.load(open("ex/evident.ipynb"))
assert nb["nbformat"] == 4 and all("source" in c for c in nb["cells"])
PY
fi
cp -r ex ex1
expect_exit 0 "$EVIDENT" export --out ex
diff -r ex1 ex || fail "a second export differs"
