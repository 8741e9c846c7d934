# t0360 - red team 300 row 1 (host/redteam300/README.md): every scale
# gemm's fill drew was diagonal (a power of two a row of A, a column of
# B, a K channel), so a Strassen behind a power-of-two equilibration of
# K, rows and columns (redteam300/eqkstrassen.c EQ 2) undid them all:
# `ok` 15 of 15 and `validated`.  Now 3 launches in 4 (fp32, bf16) also
# take a secret power of two per tile of A and of B (tiles of secret,
# non-aligned sizes, shared across K; problems/gemm.c gemm_tile_scales),
# which no diagonal scaling undoes: eqkstrassen is refused in every run
# (wrong_output, or flaky where a check passed), its plain twin (LEVELS
# 0, the same file and the same equilibration) stays ok.  24 seeds, so 8
# `cancel` launches a run besides the timed ones: a run escapes only if
# none of them drew tiles ((1/4)^8; at 9 seeds, (1/4)^3, one run of 2 in
# a make test of 2026-12-07 escaped).  256^3 at one level (the unit
# test's: every tiled launch refused).  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam300
cat > eqk.yaml <<EOT
name: t0360-eqkstrassen
question: is red team 300's Strassen equilibrated along K, rows and columns refused, and its plain twin not?
problem: gemm
backend: host
kernel: $K/eqkstrassen.c
shape: {M: 256, N: 256, K: 256}
correctness: {seeds: 24}
timing: {warmup_ms: 5, samples: 10}
limits: {timeout_s: 240}
flags: [-O3, -mavx2, -mfma]
baseline: plain
variants:
  plain: {LEVELS: 0, EQ: 2}
  eqkstrassen: {LEVELS: 1, EQ: 2}
repeats: 2
EOT
"$EVIDENT" run --no-progress --store "$TEST_TMP/eqk" eqk.yaml > run.out 2>&1
cat run.out
# every run's outcome, one line a run: VARIANT OUTCOME
python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/eqk" | sort > outcomes.out
cat outcomes.out
for v in plain eqkstrassen; do
	expect_eq "$(grep -c "^$v " outcomes.out)" 2 "$v's runs"
done
expect_eq "$(grep -c '^plain ok$' outcomes.out)" 2 "the plain twin ok"
expect_eq "$(grep -cE '^eqkstrassen (wrong_output|flaky)$' outcomes.out)" 2 "the equilibrated Strassen refused"
exit 0
