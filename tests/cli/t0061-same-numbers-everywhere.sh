# t0061: one statistic is one number everywhere.  For a committed batch of
# the study (the newest of iter1 in artifacts/), p (Holm-adjusted over the
# batch), the speedup and its CI, and the median and its CI are the same
# in a paper's value blocks and its table, in `evident show BATCH`, in the
# CSV export and in audit `value` claims - each to the precision it prints;
# so are the throughput (TFLOP/s, GB/s) and its fraction of the GPU's peak
# in the paper's table, `show` and the CSV (the batch predates recorded
# peaks: show and export look the H100's up in data/gpu-peaks.yaml).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
S="$REPO/artifacts"
[ -d "$S/runs" ] || skip "no committed store in $S"
expect_exit 0 "$EVIDENT" ls --store "$S" --batches --experiment iter1 --json
# the batch PAPER.md's iter1 section is pinned to (an H100 batch of 8
# variants, 3 repeats: Holm moves its p), not the newest one, which a
# session on other GPUs may add
B=$(python3 -c 'import json,sys; ids=[r["run_id"] for r in json.load(sys.stdin)]; b="20261125T071616.390Z-iter1-329b11e7-batch"; print(b if b in ids else "")' <"$TEST_TMP/out")
[ -n "$B" ] || fail "no iter1 batch in $S"
V=wmma   # an ok variant with a comparison (iter1 itself is wrong_output in the newest batch)

# the CSV export: full precision.  Of a store of seven batches and a
# search of $S (their records, their variants' runs and the objects they
# name, copied): a batch's numbers are the batch's own (p is Holm over the batch), and
# exporting all of $S (1649 records) cost 10 s of CPU, 20 s sanitized, for
# the same row (checked 2026-11-28: the same values; only the columns of
# parameters, a union over the store, differ).  Beside B, for the lines of
# src/ that only this export of the study store ran (gcov,
# scripts/cli-coverage.sh): an iter2 batch whose failed builds' reasons
# hold '"' (CSV quoting; variants without a correctness result), a
# cuda-sealed batch whose baseline failed (an ok variant without a
# comparison), a cuda-faults batch of the first record format (an ok
# variant that recorded no MDE), the three host batches of evo-host (a
# CPU's peak looked up once, then from the cache) and their search's
# record (an entry neither a run nor a batch).
python3 - "$S" "$TEST_TMP/sub" "$B" 20261123T213328.222Z-iter2-4d2cbe62-batch 20261125T060428.825Z-cuda-sealed-feeb3e34-batch \
	20261122T042519.251Z-cuda-faults-42677e84-batch 20261125T085708.957Z-evo-host-5ec6119c-batch \
	20261125T085715.092Z-evo-host-3fb16e75-batch 20261125T085720.949Z-evo-host-19c7f402-batch \
	20261125T085708.793Z-evo-host-91c08597-search <<'PY' ||
import json, os, re, shutil, sys
S, D = sys.argv[1:3]
ids = []
for B in sys.argv[3:]:
    b = json.load(open("%s/runs/%s.json" % (S, B)))
    ids += [B] + [r for v in b.get("variants", []) for r in (v.get("runs") or [])]
os.makedirs(D + "/runs")
for i in ids:
    shutil.copy("%s/runs/%s.json" % (S, i), D + "/runs/")
    for h in set(re.findall(r"\b[0-9a-f]{64}\b", open("%s/runs/%s.json" % (S, i)).read())):
        o = "%s/objects/%s/%s" % (S, h[:2], h[2:])
        if os.path.exists(o):
            os.makedirs("%s/objects/%s" % (D, h[:2]), exist_ok=True)
            shutil.copy(o, "%s/objects/%s/%s" % (D, h[:2], h[2:]))
PY
	fail "cannot copy batch $B and seven more records out of $S"
(cd "$REPO" && "$EVIDENT" export --store "$TEST_TMP/sub" --out "$TEST_TMP/ex") >/dev/null || fail "export"
python3 - "$B" "$V" <<'PY' >csv.env || fail "no row of $V in batch $B in summaries.csv"
import csv, sys
b, v = sys.argv[1:]
r = [r for r in csv.DictReader(open("ex/summaries.csv")) if r["batch_run_id"] == b and r["variant"] == v]
assert len(r) == 1, r
r = r[0]
for k in ("p", "p_raw", "speedup", "speedup_ci_lo", "speedup_ci_hi", "median_us", "median_ci_lo", "median_ci_hi",
          "gflops", "gbps", "frac_compute_peak", "frac_bandwidth_peak"):
    assert r[k], k
    print("%s=%s" % (k, r[k]))
PY
. ./csv.env
[ "$p" != "$p_raw" ] || fail "the batch's p equals the raw p: pick a batch of several comparisons"

# the paper: value blocks pinned to the batch (many digits) and its table
cat >paper.md <<EOF
p <!-- evident:value experiment=iter1 variant=$V run=$B stat=p digits=17 --><!-- /evident:value -->
speedup <!-- evident:value experiment=iter1 variant=$V run=$B stat=speedup digits=15 --><!-- /evident:value -->
median <!-- evident:value experiment=iter1 variant=$V run=$B stat=median_us digits=12 --><!-- /evident:value -->

<!-- evident:table experiment=iter1 run=$B -->
<!-- /evident:table -->
EOF
expect_exit 0 "$EVIDENT" paper --store "$S" paper.md

# evident show BATCH (from the repository, where the GPU peak table is)
(cd "$REPO" && "$EVIDENT" show --store "$S" "$B") >show.txt || fail "show"

# audit value claims stating the CSV's numbers; run where the sources are, so nothing is stale
cat >claims.md <<EOF
<!-- claim: value experiment=iter1 variant=$V run=$B stat=p value=$p -->
<!-- claim: value experiment=iter1 variant=$V run=$B stat=speedup value=${speedup}x -->
<!-- claim: value experiment=iter1 variant=$V run=$B stat=median_us value=${median_us}us -->
EOF
# (the median is B's own: other batches of the same code put it outside
# their CIs, which the audit says, rc 1: a value claim on a time is held
# against every batch of the code, red team 47; the numbers it prints
# are still B's)
rc=0
(cd "$REPO" && "$EVIDENT" audit --store "$S" --no-untraced "$TEST_TMP/claims.md") >audit.txt 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat audit.txt; fail "the audit of the CSV's own numbers failed (rc $rc)"; }

python3 - "$V" <<'PY' || fail "a number differs between paper, show, CSV and audit (above)"
import re, sys
v = sys.argv[1]
csv = dict(l.strip().split("=", 1) for l in open("csv.env"))
x = {k: float(val) for k, val in csv.items()}
bad = []

def same(what, printed, exact, decimals=None, sig=None):
    """printed (text) is exact to the precision it was printed with."""
    got = float(printed)
    if decimals is not None:
        ok = abs(got - exact) <= 0.5 * 10 ** -decimals * (1 + 1e-9)
    else:
        ok = abs(got - exact) <= 0.5 * 10 ** (-(sig - 1)) * abs(exact) * (1 + 1e-9) + 1e-300
    print("%-36s %-24s %s %r" % (what, printed, "==" if ok else "!=", exact))
    if not ok:
        bad.append(what)

# paper value blocks
paper = open("paper.md").read()
def block(stat):
    m = re.search(r"stat=%s digits=\d+ -->([^<]*)<!--" % stat, paper)
    return m.group(1).strip()
same("paper value p", block("p"), x["p"], sig=17)
same("paper value speedup", block("speedup").rstrip("x"), x["speedup"], decimals=15)
same("paper value median_us", block("median_us").split()[0], x["median_us"], decimals=12)
# the paper's table row: median [CI], speedup [CI], p
row = [l for l in paper.splitlines() if l.startswith("| %s |" % v)][0]
cells = [c.strip() for c in row.split("|")]
# columns by their header (a v2 table adds repeats, throughput, events)
head = [c.strip() for c in [l for l in paper.splitlines() if l.startswith("| variant |")][0].split("|")]
col = lambda name: cells[head.index(name)]
m = re.fullmatch(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", col("median us [95% CI]"))
for k, g in zip(("median_us", "median_ci_lo", "median_ci_hi"), m.groups()):
    same("paper table " + k, g, x[k], decimals=2)
m = re.fullmatch(r"([\d.]+)x \[([\d.]+), ([\d.]+)\]", col("speedup [95% CI]"))
for k, g in zip(("speedup", "speedup_ci_lo", "speedup_ci_hi"), m.groups()):
    same("paper table " + k, g, x[k], decimals=3)
same("paper table p", col("p (Holm)") if "p (Holm)" in head else col("p"), x["p"], sig=2)
same("paper table TFLOP/s", col("TFLOP/s"), x["gflops"] / 1e3, sig=3)
same("paper table GB/s", col("GB/s"), x["gbps"], sig=3)

# evident show BATCH: the variant's row of the table
line = [l for l in open("show.txt") if re.match(r"%s\s" % re.escape(v), l)][0]
m = re.search(r"([\d.]+) \[([\d.]+), ([\d.]+)\]\s+([\d.]+) \(([\d.]+)%\)\s+([\d.]+) \(([\d.]+)%\)\s+"
              r"([\d.]+)x \[([\d.]+), ([\d.]+)\]\s+(\S+)\s", line)
assert m, line
for k, g in zip(("median_us", "median_ci_lo", "median_ci_hi"), m.groups()[:3]):
    same("show " + k, g, x[k], decimals=2)
same("show TFLOP/s", m.group(4), x["gflops"] / 1e3, sig=3)
same("show %peak FLOP/s", m.group(5), 100 * x["frac_compute_peak"], sig=3)
same("show GB/s", m.group(6), x["gbps"], sig=3)
same("show %peak GB/s", m.group(7), 100 * x["frac_bandwidth_peak"], sig=3)
for k, g in zip(("speedup", "speedup_ci_lo", "speedup_ci_hi"), m.groups()[7:10]):
    same("show " + k, g, x[k], decimals=3)
same("show p (Holm)", m.group(11), x["p"], sig=3)
m = re.search(r"\b%s: .*p raw (\S+) " % re.escape(v), open("show.txt").read())
same("show p raw", m.group(1), x["p_raw"], sig=3)

# audit: what each claim says the record holds (and its CI)
audit = open("audit.txt").read()
for stat, k, lo, hi in (("p", "p", None, None), ("speedup", "speedup", "speedup_ci_lo", "speedup_ci_hi"),
                        ("median_us", "median_us", "median_ci_lo", "median_ci_hi")):
    m = re.search(r": (supported|contradicted): value iter1/%s %s=\S+: recorded (\S+), within (the 95%% CI|the precision written) \[(\S+), (\S+)\][^\n]*" % (re.escape(v), stat), audit)
    assert m, (stat, audit)
    # only the median may be contradicted, and only by the other batches of its code
    assert m.group(1) == "supported" or (stat == "median_us" and re.search(r"; but only \d+ of \d+ batches of the same code", m.group(0))), (stat, audit)
    m = re.search(r"recorded (\S+), within (?:the 95% CI|the precision written) \[(\S+), (\S+)\]", m.group(0))
    same("audit " + k, m.group(1), x[k], sig=6)
    if lo:
        same("audit " + lo, m.group(2), x[lo], sig=6)
        same("audit " + hi, m.group(3), x[hi], sig=6)
sys.exit(1 if bad else 0)
PY
