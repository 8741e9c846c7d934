# t0339 - red team 286 (host/redteam286/README.md): every rowsum input the
# judge drew was of one scale (|x| < 16) in rows alike along their length,
# no zeros, so fixsum.c (a fixed-point sum at a 2^-20 step) was ok 48 of
# 48 runs and headsum.c (the step from each row's first 16 elements) 24 of
# 24, `validated` supported, both wrong on a user's data.  Now a sample
# of `uniform`, `padded` or `spikes` is times a secret 2^k, k in [-14, 0]
# (rowsum_scale_exp), and those two new distributions have rows unlike
# along their length: `padded` (a run of exact zeros in every row, at its
# head in half the rows) and `spikes` (+-[4096, 16384) at secret
# columns).  Both kernels are refused in every
# run (wrong_output, or flaky where one distribution passed at one scale
# and failed at another: outcome.c), `validated` is contradicted for both,
# and their honest twin fltsum.c and naive.c stay ok.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam286
cat > rt286.yaml <<EOF
name: t0339-rt286
question: are sums exact only at the fill's scale, or on rows alike along their length, refused?
problem: rowsum
backend: host
shape: {R: 256, C: 4096}
correctness: {seeds: 6}
timing: {warmup_ms: 10, samples: 30}
limits: {timeout_s: 300}
baseline: fltsum
variants:
  fltsum: {kernel: $K/fltsum.c}
  naive: {kernel: kernels/rowsum/naive.c}
  fixsum: {kernel: $K/fixsum.c}
  headsum: {kernel: $K/headsum.c}
repeats: 3
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/s" rt286.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/s" | sort > outcomes.out
cat outcomes.out
for v in fltsum naive fixsum headsum; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 3 "$v's runs"
done
expect_eq "$(grep -c '^fltsum ok$' outcomes.out)" 3 "fltsum ok"
expect_eq "$(grep -c '^naive ok$' outcomes.out)" 3 "naive ok"
expect_eq "$(grep -cE '^fixsum (wrong_output|flaky)$' outcomes.out)" 3 "fixsum refused"
expect_eq "$(grep -cE '^headsum (wrong_output|flaky)$' outcomes.out)" 3 "headsum refused"
cat > claim.md <<'EOF'
fixsum passes every check. <!-- claim: validated experiment=t0339-rt286 variant=fixsum -->
headsum passes every check. <!-- claim: validated experiment=t0339-rt286 variant=headsum -->
fltsum passes every check. <!-- claim: validated experiment=t0339-rt286 variant=fltsum -->
EOF
"$EVIDENT" audit --store "$TEST_TMP/s" claim.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim.md:1: contradicted: validated t0339-rt286/fixsum"
expect_match audit.out "claim.md:2: contradicted: validated t0339-rt286/headsum"
expect_match audit.out "claim.md:3: supported: validated t0339-rt286/fltsum"
exit 0
