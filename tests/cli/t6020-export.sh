# t6020: 'evident export' writes tidy samples, summaries (CSV and JSON Lines),
# Google Benchmark JSON and a notebook, deterministically.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
setup_tiny_repo
run_tiny tiny.yaml
expect_exit 0 "$EVIDENT" export --out ex
expect_eq "$(head -1 ex/samples.csv)" 'run_id,experiment,batch_id,variant,outcome,CRASH,REPEAT,sample_index,value,unit'
expect_eq "$(tail -n +2 ex/samples.csv | wc -l)" 40 "samples: 2 variants x 20"
expect_eq "$(wc -l <ex/samples.jsonl)" 40
expect_eq "$(grep -c ',tiny,.*,slow,ok,0,6,' ex/samples.csv)" 20
expect_eq "$(tail -n +2 ex/summaries.csv | wc -l)" 2
expect_contains ex/summaries.csv ',slow,'
expect_contains ex/summaries.jsonl '"verdict":"slower"'
expect_contains ex/benchmark.json '"name": "tiny/base"'
expect_contains ex/benchmark.json '"aggregate_name": "median"'
expect_contains ex/evident.ipynb '"nbformat": 4'
if command -v python3 >/dev/null; then
	python3 - <<'PY' || fail "export is not valid JSON"
import json
for l in open("ex/samples.jsonl"): json.loads(l)
b = json.load(open("ex/benchmark.json"))
assert sum(1 for x in b["benchmarks"] if x["run_type"] == "iteration") == 40
nb = json.load(open("ex/evident.ipynb"))
assert nb["nbformat"] == 4 and all("source" in c for c in nb["cells"])
PY
fi
cp -r ex ex1
expect_exit 0 "$EVIDENT" export --out ex
diff -r ex1 ex || fail "a second export differs"
