# t6020: 'evident export' writes tidy samples, summaries (CSV and JSON Lines),
# Google Benchmark JSON and a notebook, deterministically.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
runs_alone_light "the fixture's slow variant must be judged slower: a verdict timed on the CPU (it mostly sleeps: two such tests share a CPU in make test's alone phase)"
setup_tiny_repo
run_tiny tiny.yaml
expect_exit 0 "$EVIDENT" export --out ex
expect_eq "$(head -1 ex/samples.csv)" 'run_id,experiment,batch_id,variant,repeat,outcome,kernel,kernel_sha256,CRASH,REPEAT,clock,executor,weak_judge,sample_index,value,unit'
# the samples that make the time: 2 variants x 3 repeats x about 15 of 20
# (each sample of a stress distribution with chance 1/4, on its own): as
# many as the records' timing.n say
n_time=$(python3 -c 'import json,glob,sys; print(sum(json.load(open(f))["timing"]["n"] for f in glob.glob(sys.argv[1] + "/runs/*.json") if not f.endswith("-batch.json")))' "$EVIDENT_STORE")
expect_eq "$(tail -n +2 ex/samples.csv | wc -l)" "$n_time" "samples that make the time (the records' timing.n)"
expect_eq "$(wc -l <ex/samples.jsonl)" "$n_time"
ksha=$(sha256sum kernels/tiny_attn.c | cut -d' ' -f1)
# each run's rows: as many as its record's timing.n, with the kernel's columns
python3 - "$EVIDENT_STORE" "$ksha" <<'PY' || fail "samples.csv: a run's rows are not its record's timing samples"
import csv, glob, json, sys
rows = list(csv.DictReader(open("ex/samples.csv")))
for f in glob.glob(sys.argv[1] + "/runs/*.json"):
    if f.endswith("-batch.json"):
        continue
    r = json.load(open(f))
    mine = [x for x in rows if x["run_id"] == r["run_id"]]
    assert len(mine) == r["timing"]["n"], (r["run_id"], len(mine), r["timing"]["n"])
    assert all(x["kernel"] == "kernels/tiny_attn.c" and x["kernel_sha256"] == sys.argv[2] and x["clock"] == "host" for x in mine), mine[:1]
PY
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
	python3 - "$n_time" <<'PY' || fail "export is not valid JSON"
import json, sys
for l in open("ex/samples.jsonl"): json.loads(l)
b = json.load(open("ex/benchmark.json"))
assert sum(1 for x in b["benchmarks"] if x["run_type"] == "iteration") == int(sys.argv[1])
nb = json.load(open("ex/evident.ipynb"))
assert nb["nbformat"] == 4 and all("source" in c for c in nb["cells"])
PY
fi
cp -r ex ex1
expect_exit 0 "$EVIDENT" export --out ex
diff -r ex1 ex || fail "a second export differs"
