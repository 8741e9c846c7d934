# t0327 - red team 274 row 2 (host/redteam274/README.md): the extra shape
# was a fixed function of the spec's shape (rowsum at R 1024, C 4096:
# always R 37, C 3001), so tailguess.c, which drops the last C % 64
# columns everywhere but there, was `ok` with the extra shape checked 18
# of 18 runs and its `validated` supported 2 of 2 stores.  Now the runner
# draws each run's extra shape from getrandom under the plug-in's (job.c
# extra_shape_draw: an odd C in [1501, 3001], an odd R in [19, 37] here)
# and records both (extra_shape.shape, extra_shape.ceiling).  tailguess
# is right at a drawn shape only where C is one of the 32 odd values it
# guesses in that range (it takes any R up to 37): 32 of 751, p = 0.043
# a run; of its 6 runs here at least 3 must fail the extra shape (4 or
# more passing: 5e-5).  The honest naive is ok with the extra shape
# checked in every run, and two of its runs drew different shapes (per
# run; the same in all 6: under 1e-20).  About 45 s alone.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
S="$TEST_TMP/s"
D=tests/fixtures/adversary/host/redteam274
# tail.sh's store: two batches of 3 repeats (tailguess, tailrefuse, taildrop, naive)
for i in 1 2; do
	"$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/host-redteam274-tail.yaml > run$i.out 2>&1
	cat run$i.out
done
python3 -S - "$S" > shapes.out <<'PY' || fail "the records"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*.json"))):
    d = json.load(open(f))
    if "variant" not in d:
        continue
    x = d["correctness"]["extra_shape"]
    passed = x.get("status") == "checked" and all(c["pass"] for c in d["correctness"]["checks"] if c.get("phase") == "shape")
    sh = x.get("shape") or {}
    print(d["variant"], d["outcome"], x.get("status"), "pass" if passed else "fail",
          "R=%s C=%s" % (sh.get("R"), sh.get("C")), "ceiling=%s" % json.dumps(x.get("ceiling"), sort_keys=True))
PY
cat shapes.out
expect_eq "$(grep -c '^tailguess ' shapes.out)" 6 "tailguess runs"
expect_eq "$(grep -c '^naive ' shapes.out)" 6 "naive runs"
nfail=$(grep -c '^tailguess .* fail ' shapes.out)
[ "$nfail" -ge 3 ] || fail "tailguess passed the extra shape in $((6 - nfail)) of 6 runs"
# the honest control: ok, the extra shape checked and passed, every run
expect_eq "$(grep -c '^naive ok checked pass ' shapes.out)" 6 "naive ok with the extra shape checked"
# the plug-in's own shape is the ceiling, recorded beside the draw
expect_eq "$(grep -c 'ceiling={"C": 3001, "R": 37}$' shapes.out)" "$(grep -c 'R=[0-9]' shapes.out)" "the ceiling"
# per run: the naive runs did not all draw one shape
[ "$(grep '^naive ' shapes.out | awk '{print $5, $6}' | sort -u | wc -l)" -ge 2 ] || fail "every naive run drew one extra shape"
# `validated` of tailguess is not supported
"$EVIDENT" audit --store "$S" $D/claim-tail.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim-tail.md:3: contradicted: validated host-redteam274-tail/tailguess: "
expect_not_contains audit.out "supported: validated host-redteam274-tail/tailguess"
exit 0
