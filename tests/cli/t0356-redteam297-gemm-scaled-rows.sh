# t0356 - red team 297 (host/redteam297/README.md, row 2): every row of A
# and column of B in gemm's fills had one scale, so a Strassen gemm
# (redteam297/strassen.c: an error bounded by the blocks' norms, not
# entry by entry) passed every check, `cancel`'s secret entry judge
# included (ok 18 of 18, validated), and was 1,070x past an entry's bound
# on rows of A at scales 10^0 .. 10^-4.  Now each row of A and column of
# B takes a secret power-of-two scale, alike in `uniform` and `cancel`
# (problems/gemm.c gemm_fill_octaves): one level of Strassen is refused
# in every run (wrong_output, or flaky where a check passed), its plain
# twin (LEVELS 0, the same file) stays ok.  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam297
cat > st.yaml <<EOF
name: t0356-strassen
question: is red team 297's Strassen gemm refused, and its plain twin not?
problem: gemm
backend: host
kernel: $K/strassen.c
shape: {M: 256, N: 256, K: 256}
correctness: {seeds: 6}
timing: {warmup_ms: 5, samples: 10}
limits: {timeout_s: 180}
flags: [-O3]
baseline: plain
variants:
  plain: {LEVELS: 0}
  strassen1: {LEVELS: 1}
repeats: 2
EOF
"$EVIDENT" run --no-progress --store "$TEST_TMP/st" st.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/st" | sort > outcomes.out
cat outcomes.out
for v in plain strassen1; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 2 "$v's runs"
done
expect_eq "$(grep -c '^plain ok$' outcomes.out)" 2 "the plain twin ok"
expect_eq "$(grep -cE '^strassen1 (wrong_output|flaky)$' outcomes.out)" 2 "Strassen refused"
exit 0
