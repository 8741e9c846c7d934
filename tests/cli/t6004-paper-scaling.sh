# t6004: the paper's scaling block reads one batch of each experiment it
# names (issue 24's study runs one spec per shape).  On a store of four
# committed GPU batches of the study's store (their records, their runs and
# the objects they name, copied): scaling-d64-s512 and scaling-d128-s4096
# (the newest, and an older one with an aborted variant) on an H200, and
# iter1 on an H100.  Checked: each cell is the median's TFLOP/s and fraction
# of the H200's fp16 peak (computed here from the batch records), the
# variant columns are the union in the first batch's order, '-' for a
# variant a batch lacks and the outcome for one that did not end ok, batch
# ids and latest/pinned per row, a pinned batch that is not the newest says
# which is, a block that mixes devices says so and each row names its GPU;
# the SVG is written (a panel per D, S on a log2 axis, a line per variant)
# and a second `evident paper` changes no byte; the audit reads the block's
# numbers as generated (the same number outside it is untraced); a pinned
# batch of another experiment, an experiment with no record, runs= of the
# wrong length, two experiments at one point of the figure and a
# dimension the shape lacks are errors with FILE:LINE.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
S="$REPO/artifacts"
D64=20261129T020411.739Z-scaling-d64-s512-81659a4f-batch
D128_OLD=20261128T211351.949Z-scaling-d128-s4096-68c6b5d1-batch
D128=20261128T222620.179Z-scaling-d128-s4096-333ed73f-batch
IT1=20261125T071616.390Z-iter1-329b11e7-batch
[ -f "$S/runs/$D64.json" ] || skip "no committed scaling batch in $S"
python3 - "$S" "$TEST_TMP/sub" "$D64" "$D128_OLD" "$D128" "$IT1" <<'PY' || fail "cannot copy the four batches out of $S"
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
ST="$TEST_TMP/sub"
# paper runs from the repository (iter1's record predates recorded peaks:
# the H100's comes from data/gpu-peaks.yaml); the files are here
paper() { (cd "$REPO" && "$EVIDENT" paper --store "$ST" "$@"); }

cat >P.md <<EOF
# Scaling

<!-- evident:scaling experiments=scaling-d64-s512,scaling-d128-s4096 runs=latest path=figures/scaling.svg -->

Pinned, the older d128 batch:

<!-- evident:scaling experiments=scaling-d128-s4096,scaling-d64-s512 runs=$D128_OLD,latest -->

Two GPUs (x=B, so that iter1's S=512 D=64 is not scaling-d64-s512's point):

<!-- evident:scaling experiments=scaling-d64-s512,iter1 runs=latest x=B path=figures/mixed.svg -->
EOF
expect_exit 0 paper "$TEST_TMP/P.md"
[ -s figures/scaling.svg ] && [ -s figures/mixed.svg ] || fail "the figures were not written"
python3 - "$ST" "$D64" "$D128_OLD" "$D128" <<'PY' || fail "the scaling tables are not the records' numbers (above)"
import json, sys
st, d64, d128_old, d128 = sys.argv[1:]
doc = open("P.md").read()
blocks = [b.split("<!-- /evident:scaling -->")[0] for b in doc.split("<!-- evident:scaling ")[1:]]
assert len(blocks) == 3, len(blocks)

def rate(v):  # record_rate_add: three significant digits
    d = 0 if v >= 100 else 1 if v >= 10 else 2 if v >= 1 else 3
    return "%.*f" % (d, v)

def cell(bid, variant):
    b = json.load(open("%s/runs/%s.json" % (st, bid)))
    v = [r for r in b["variants"] if r["variant"] == variant]
    if not v:
        return "-"
    v = v[0]
    if v["outcome"] != "ok":
        return "**%s**" % v["outcome"]
    t = b["problem"]["flops"] / (v["stats"]["median"] * 1e-6) / 1e12
    f = t * 1e3 / b["throughput"]["peak"]["gflops"]
    c = "%s (%s)" % (rate(t), "%.2f" % f if f >= 0.095 else "%.2g" % f)
    # a rate from fewer repeats than ran says so (red team 32)
    if v["ok_runs"] < len(v["runs"]):
        c += ", %d of %d repeats ok" % (v["ok_runs"], len(v["runs"]))
    return c

def table(block):
    lines = [l for l in block.splitlines() if l.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return head, {r[0].strip("`"): dict(zip(head, r)) for r in
                  ([c.strip() for c in l.strip("|").split("|")] for l in lines[1:])}

bad = []
def eq(what, got, want):
    print("%-52s %-28s %s %s" % (what, got, "==" if got == want else "!=", want))
    if got != want:
        bad.append(what)

# block 1: latest of each; the union of variants in the first batch's order
head, rows = table(blocks[0])
eq("columns", head, ["experiment", "shape", "mma", "wg5p", "cudnn_sdpa", "batch", "device"])
eq("d64 shape", rows["scaling-d64-s512"]["shape"], "B=32 H=32 S=512 D=64 fp16")
eq("d128 shape", rows["scaling-d128-s4096"]["shape"], "B=4 H=16 S=4096 D=128 fp16")
for v in ("mma", "wg5p", "cudnn_sdpa"):
    eq("d64 " + v, rows["scaling-d64-s512"][v], cell(d64, v))
    eq("d128 " + v, rows["scaling-d128-s4096"][v], cell(d128, v))
eq("d128 cudnn_sdpa literal", rows["scaling-d128-s4096"]["cudnn_sdpa"], "666 (0.67)")
eq("d128 mma: one of its two repeats ok", rows["scaling-d128-s4096"]["mma"], "292 (0.30), 1 of 2 repeats ok")
eq("d64 batch", rows["scaling-d64-s512"]["batch"], "`%s` (latest)" % d64)
eq("d128 batch", rows["scaling-d128-s4096"]["batch"], "`%s` (latest)" % d128)
eq("d64 device", rows["scaling-d64-s512"]["device"], "NVIDIA H200")
eq("one device: no warning", "different devices" in blocks[0], False)
eq("figure link", "](figures/scaling.svg)" in blocks[0], True)
eq("peak named", "peak 990 TFLOP/s fp16 (H200 SXM 141GB (HBM3e))" in blocks[0], True)

# block 2: the pinned older batch (its wg5p aborted), in the marker's order
head, rows = table(blocks[1])
eq("pinned columns", head, ["experiment", "shape", "mma", "wg5", "wg5p", "cudnn_sdpa", "batch", "device"])
eq("pinned aborted", rows["scaling-d128-s4096"]["wg5p"], "**aborted**")
for v in ("mma", "wg5", "cudnn_sdpa"):
    eq("pinned d128 " + v, rows["scaling-d128-s4096"][v], cell(d128_old, v))
eq("pinned d64 wg5", rows["scaling-d64-s512"]["wg5"], "-")
eq("pinned batch", rows["scaling-d128-s4096"]["batch"], "`%s` (pinned)" % d128_old)
eq("newer batch named", ("A newer batch of `scaling-d128-s4096` exists: `%s`." % d128) in blocks[1], True)

# block 3: two GPUs
head, rows = table(blocks[2])
eq("mixed d64 device", rows["scaling-d64-s512"]["device"], "NVIDIA H200")
eq("mixed iter1 device", rows["iter1"]["device"].startswith("NVIDIA H100"), True)
eq("mixed iter1 iter1", rows["iter1"]["iter1"], "**wrong_output**")
eq("mixed iter1 naive: two significant digits of a small fraction", rows["iter1"]["naive"], "2.05 (0.0021)")
eq("mixed warning", "**Warning: the rows of this block ran on different devices**" in blocks[2], True)
sys.exit(1 if bad else 0)
PY
python3 - <<'PY' || fail "the scaling figure is not what the table says (above)"
import re
svg = open("figures/scaling.svg").read()
assert svg.startswith("<?xml") and svg.endswith("</svg>\n"), "not a whole SVG"
for t in (">D=64<", ">D=128<", ">512<", ">4096<", ">mma<", ">wg5p<", ">cudnn_sdpa<", "S (log2 axis)",
          "TFLOP/s of each variant's median against S, one panel per D", "NVIDIA H200"):
    assert t in svg, t
# one point in the D=64 panel (mma), three in the D=128 one: a marker each, plus the legend's three
marks = len(re.findall(r"<circle |<rect x=\"[\d.]+\" y=\"[\d.]+\" width=\"8\"|<path d=\"M", svg))
assert marks == 4 + 3, marks
mixed = open("figures/mixed.svg").read()
assert "several devices" in mixed and "against B" in mixed, "mixed figure"
PY

# deterministic: a second run changes no byte of the paper or its figures
cp P.md P.once && cp figures/scaling.svg s.once && cp figures/mixed.svg m.once
expect_exit 0 paper "$TEST_TMP/P.md"
expect_contains "$TEST_TMP/out" "0 figures rewritten"
cmp P.md P.once && cmp figures/scaling.svg s.once && cmp figures/mixed.svg m.once || fail "a second paper changed a byte"
expect_exit 0 paper --check "$TEST_TMP/P.md"

# the audit: the block's numbers are generated; the same number in prose is not
(cd "$REPO" && "$EVIDENT" audit --strict --store "$ST" "$TEST_TMP/P.md") >audit.txt 2>&1 ||
	{ cat audit.txt; fail "audit --strict found something in the generated blocks"; }
expect_contains audit.txt "0 untraced numbers"
printf '\nmma reaches 666 TFLOP/s at S=4096.\n' >>P.md
(cd "$REPO" && "$EVIDENT" audit --strict --store "$ST" "$TEST_TMP/P.md") >audit.txt 2>&1 && fail "audit passed an untraced number"
expect_contains audit.txt "untraced: '666 TFLOP/s'"

# errors with FILE:LINE
printf 'x\n<!-- evident:scaling experiments=scaling-d64-s512 runs=%s -->\n' "$D128" >E1.md
expect_exit 1 paper "$TEST_TMP/E1.md"
expect_contains "$TEST_TMP/err" "error: $TEST_TMP/E1.md:2: experiment 'scaling-d64-s512' (pinned): run '$D128' is of experiment 'scaling-d128-s4096', not 'scaling-d64-s512'"
printf '<!-- evident:scaling experiments=scaling-d64-s512,scaling-d64-s1024 runs=latest -->\n' >E2.md
expect_exit 1 paper "$TEST_TMP/E2.md"
expect_contains "$TEST_TMP/err" "error: $TEST_TMP/E2.md:1: experiment 'scaling-d64-s1024' (latest): no recorded run of experiment 'scaling-d64-s1024'"
expect_contains E2.md '| `scaling-d64-s1024` | **no recorded batch** |'
expect_contains "$TEST_TMP/err" "1 block names an experiment or run with no record"
printf '<!-- evident:scaling experiments=scaling-d64-s512,iter1,scaling-d128-s4096 runs=latest,%s -->\n' "$D128" >E3.md
cp E3.md E3.orig
expect_exit 1 paper "$TEST_TMP/E3.md"
expect_contains "$TEST_TMP/err" "error: $TEST_TMP/E3.md:1: runs= names 2 batch(es) for 3 experiment(s)"
cmp E3.md E3.orig || fail "a malformed marker changed the file"
printf '<!-- evident:scaling experiments=scaling-d64-s512,iter1 runs=latest path=f.svg -->\n' >E4.md
expect_exit 1 paper "$TEST_TMP/E4.md"
expect_contains "$TEST_TMP/err" "error: $TEST_TMP/E4.md:1: experiments 'scaling-d64-s512' and 'iter1' are both S=512 D=64"
printf '<!-- evident:scaling experiments=scaling-d64-s512 runs=latest x=Q path=f.svg -->\n' >E6.md
expect_exit 1 paper "$TEST_TMP/E6.md"
expect_contains "$TEST_TMP/err" "error: $TEST_TMP/E6.md:1: the shape of experiment 'scaling-d64-s512' has no dimension 'Q' for the figure's x axis (it has: B, H, S, D; name one with x=)"
printf '<!-- evident:scaling experiment=scaling-d64-s512 runs=latest -->\n' >E5.md
expect_exit 1 paper "$TEST_TMP/E5.md"
expect_contains "$TEST_TMP/err" "the 'scaling' marker takes no 'experiment'"
