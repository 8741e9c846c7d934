# t0355 - red team 293 rows 4 and 4b, after t0349's fix (host/redteam293/
# README.md, "Fixed (rows 4 and 4b)"): rowsum's rows lie at their own
# scales in three launches in four, but the rule was normwise (atol times
# the launch's largest |ref|, rel L2 over the output), so a row 2^28 under
# the launch's top was inside atol whatever was written for it: skiprow.c,
# which writes 0 for the rows whose scale (16 columns spread over the row)
# is 2^28 or more under the launch's largest and sums the rest as the
# honest fltsum.c does, was `ok` in every run.  Now every row (up to 4096)
# is judged within a bound of its own terms (problems/rowsum.c
# rowsum_focus: rho |sum| + phi sum |x|, evident_focus.h), so skiprow is
# refused in every run (wrong_output, or flaky where a launch of one scale
# passed), `validated skiprow` is contradicted, headfix.c stays refused,
# and the honest naive.c and red team 286's fltsum.c stay ok.  About 60 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host
cat > rt293.yaml <<EOF2
name: t0355-rt293
question: is a rowsum that skips the rows far under the launch's top refused?
problem: rowsum
backend: host
shape: {R: 256, C: 4096}
correctness: {seeds: 6}
timing: {warmup_ms: 10, samples: 30}
limits: {timeout_s: 300}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c}
  fltsum: {kernel: $K/redteam286/fltsum.c}
  skiprow: {kernel: $K/redteam293/skiprow.c}
  headfix: {kernel: $K/redteam293/headfix.c}
repeats: 3
EOF2
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" rt293.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in naive fltsum skiprow headfix; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^naive ok$' outcomes.out)" 3 "naive ok"
expect_eq "$(grep -c '^fltsum ok$' outcomes.out)" 3 "fltsum ok"
expect_eq "$(grep -cE '^skiprow (wrong_output|flaky)$' outcomes.out)" 3 "skiprow refused"
expect_eq "$(grep -cE '^headfix (wrong_output|flaky)$' outcomes.out)" 3 "headfix refused"
# the rows it skipped are what failed: its checks' focus entries out of bound
python3 -c 'import glob, json, sys
out = 0
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant") == "skiprow":
        for c in d.get("correctness", {}).get("checks", []):
            out += (c.get("focus") or {}).get("out", 0)
print(out)' "$TEST_TMP/s" > focus.out
cat focus.out
[ "$(cat focus.out)" -gt 0 ] || fail "no focus entry of skiprow's checks was out of its bound"
cat > claim.md <<'EOF2'
skiprow passes every check. <!-- claim: validated experiment=t0355-rt293 variant=skiprow -->
fltsum passes every check. <!-- claim: validated experiment=t0355-rt293 variant=fltsum -->
EOF2
"$EVIDENT" audit --store "$TEST_TMP/s" claim.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim.md:1: contradicted: validated t0355-rt293/skiprow"
expect_match audit.out "claim.md:2: supported: validated t0355-rt293/fltsum"
exit 0
