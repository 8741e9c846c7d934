# t0330 - red team 279 row 2 and red team 277 rows 1-1c: the extra shape
# was drawn under the plug-in's own (rowsum: C in [1501, 3001], R in [19,
# 37], always odd, whatever the spec's scale), so a kernel exact up to C
# 3001 and dropping the tail of wider rows (bigtail.c, tailbig.c; smbig.c
# on softmax, under 397) or dropping it for even C alone (tailodd.c) was
# `ok` and `validated`.  Now each key is drawn uniformly, of either
# parity, between half the plug-in's value and the spec's (job.c
# extra_shape_range, extra_shape_draw), and the record keeps the range
# (correctness.extra_shape.range).  14 runs of naive rowsum at R 64,
# C 8192: every drawn shape inside the recorded range, which reaches the
# spec's C and R; some C above 3001, some even and some odd C (each of
# the last two fails by chance once in 16384 times).  And a key the
# problem keeps only under its cap is drawn, one it keeps at any scale
# is not.  About 25 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress --store "$TEST_TMP/s" tests/fixtures/specs/host-extra-shape-range.yaml
python3 -S - "$TEST_TMP/s" > shapes.out <<'PY' || fail "the records"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*.json"))):
    d = json.load(open(f))
    if "variant" not in d:
        continue
    x = d["correctness"]["extra_shape"]
    sh, rg = x.get("shape") or {}, x.get("range") or {}
    print(d["outcome"], x.get("status"), sh.get("R"), sh.get("C"), json.dumps(rg, sort_keys=True))
PY
cat shapes.out
expect_eq "$(grep -c '^ok checked ' shapes.out)" 14 "naive ok with its extra shape checked, 14 runs"
expect_eq "$(grep -c ' {"C": \[1, 8192\], "R": \[1, 64\]}$' shapes.out)" 14 "the recorded range reaches the spec's C and R"
awk '$3 < 1 || $3 > 64 || $4 < 1 || $4 > 8192 { print "outside the range: " $0; bad = 1 } END { exit bad }' shapes.out ||
	fail "a drawn shape outside its range"
[ "$(awk '$4 > 3001' shapes.out | wc -l)" -ge 1 ] || fail "no drawn C above the plug-in's 3001"
[ "$(awk '$4 % 2 == 0' shapes.out | wc -l)" -ge 1 ] || fail "no even C drawn in 14 runs"
[ "$(awk '$4 % 2 == 1' shapes.out | wc -l)" -ge 1 ] || fail "no odd C drawn in 14 runs"
# a key the problem keeps only under its cap is drawn (red team 280 row
# 1: rowsum's R at a spec's R 32; red team 281 row 1: at R 16, under half
# the cap); one it keeps at any scale is not
# (attention's head dim D, which kernels are compiled for)
expect_exit 0 "$EVIDENT" run --no-progress --store "$TEST_TMP/k" tests/fixtures/specs/host-extra-shape-kept.yaml
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 --only naive --store "$TEST_TMP/a" tests/fixtures/specs/tiny.yaml
python3 -S - "$TEST_TMP/k" "$TEST_TMP/a" > kept.out <<'PY' || fail "the records"
import glob, json, os, sys
for st in sys.argv[1:]:
    for f in sorted(glob.glob(os.path.join(st, "runs", "*.json"))):
        d = json.load(open(f))
        if "variant" not in d:
            continue
        x = d["correctness"]["extra_shape"]
        print(d["problem"]["name"] if isinstance(d.get("problem"), dict) else d.get("problem"), x.get("status"),
              json.dumps(x.get("range"), sort_keys=True), json.dumps(x.get("shape"), sort_keys=True))
PY
cat kept.out
expect_eq "$(grep -c '^rowsum checked {"C": \[1, 512\], "R": \[1, 16\]}' kept.out)" 2 "rowsum's R drawn at a spec's R 16"
grep '^attention_fwd ' kept.out | grep -q '"D": \[' && fail "attention's D was drawn"
grep -q '^attention_fwd checked .*"D": 16' kept.out || fail "attention's extra shape keeps D 16"
exit 0
