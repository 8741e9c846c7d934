# t0123: what a search spec refuses before anything runs: --only and
# --slurm (a search runs its generations here, one batch after another), a
# misspelled key of search: (with a did-you-mean), a budget in a unit the
# backend does not record, a GPU search where there is no GPU (exit 4);
# and what --dry-run prints (the start, the tunables, a generation's
# size).  Nothing is written.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/s.yaml <<'Y'
name: s
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  base: {SLEEP_US: 2000}
search:
  population: 3
  generations: 2
  tunables:
    SLEEP_US: {range: [1000, 4000], step: 1000}
  budget: {cpu_s: 60}
Y
expect_exit 2 "$EVIDENT" run --only base experiments/s.yaml
expect_contains "$TEST_TMP/err" "experiments/s.yaml: a search runs its generations here, one batch after another, so --only does not apply"
expect_exit 2 "$EVIDENT" run --slurm experiments/s.yaml
expect_contains "$TEST_TMP/err" "so --slurm does not apply"
expect_exit 0 "$EVIDENT" run --dry-run experiments/s.yaml
expect_contains "$TEST_TMP/out" "a search from base (tests/fixtures/host/sleepy.c SLEEP_US=2000)"
expect_contains "$TEST_TMP/out" "  tunable SLEEP_US             1000..4000 step 1000"
expect_contains "$TEST_TMP/out" "up to 2 generation(s), each plan: 4 variants x 3 repeats = 12 runs"
expect_contains "$TEST_TMP/out" "budget: 60 cpu_s; the seed will be drawn"
sed 's/  generations: 2/  generatoins: 2/' experiments/s.yaml > experiments/t.yaml
expect_exit 3 "$EVIDENT" run experiments/t.yaml
expect_eq "$(cat "$TEST_TMP/err")" "error: experiments/t.yaml:10:3: unknown key 'generatoins' in 'search' (did you mean 'generations'?)"
sed 's/budget: {cpu_s: 60}/budget: {usd: 2}/' experiments/s.yaml > experiments/u.yaml
expect_exit 3 "$EVIDENT" run experiments/u.yaml
expect_contains "$TEST_TMP/err" "experiments/u.yaml:13:12: the host backend records no GPU time or price: give the budget as cpu_s (the runs' wall time)"
[ ! -e artifacts ] || fail "a refused search wrote to the store"
# a GPU search on a machine without one: exit 4, and nothing written
if ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }; then
	cat > experiments/g.yaml <<'Y'
name: g
problem: attention_fwd
kernel: kernels/attention/fa_s512.cu
shape: {B: 1, H: 1, S: 64, D: 64}
variants:
  base: {BLOCK_M: 64}
search:
  tunables:
    BLOCK_M: {choices: [32, 64]}
  budget: {gpu_s: 60}
Y
	expect_exit 4 "$EVIDENT" run experiments/g.yaml
	expect_contains "$TEST_TMP/err" "error: no_device: experiment 'g' needs the cuda backend, which cannot run here"
	[ ! -e artifacts ] || fail "a search without its device wrote to the store"
fi
exit 0
