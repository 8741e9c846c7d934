# t0358 - red team 299 row 1 (host/redteam299/README.md): gemm's secret
# scales were rows of A and columns of B only (red team 297's fix), so a
# Strassen that first scales each row of A and column of B back to one
# norm by powers of two (redteam299/eqstrassen.c EQ 1) undid them: `ok`
# 10 of 10 and `validated`, and 26x past the rule on inputs scaled along
# K.  Now half the k take a secret 2^+-e (e up to 10 in fp32), column k of
# A times it and row k of B over it, every term unchanged exactly
# (problems/gemm.c gemm_fill_octaves): eqstrassen is refused in every run
# (wrong_output, or flaky where a check passed), its plain twin (LEVELS 0,
# the same file and the same equilibration) stays ok.  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam299
cat > eq.yaml <<EOT
name: t0358-eqstrassen
question: is red team 299's equilibrated Strassen gemm refused, and its plain twin not?
problem: gemm
backend: host
kernel: $K/eqstrassen.c
shape: {M: 256, N: 256, K: 256}
correctness: {seeds: 6}
timing: {warmup_ms: 5, samples: 10}
limits: {timeout_s: 180}
flags: [-O3]
baseline: plain
variants:
  plain: {LEVELS: 0, EQ: 1}
  eqstrassen: {LEVELS: 1, EQ: 1}
repeats: 2
EOT
"$EVIDENT" run --no-progress --store "$TEST_TMP/eq" eq.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/eq" | sort > outcomes.out
cat outcomes.out
for v in plain eqstrassen; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 2 "$v's runs"
done
expect_eq "$(grep -c '^plain ok$' outcomes.out)" 2 "the plain twin ok"
expect_eq "$(grep -cE '^eqstrassen (wrong_output|flaky)$' outcomes.out)" 2 "the equilibrated Strassen refused"
exit 0
