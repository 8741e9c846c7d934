# t7012 - `evident run --slurm` refuses a spec variant's name that an eval
# candidate of other code holds in the store, as a local run does (t0192).
# Before (red team 84, tests/fixtures/adversary/host/redteam84/README.md):
# the submission took `fast2`, the store then held two codes under it, and
# `validated fast2` was contradicted by the candidate's run.  And the
# other way round: an eval sent while a submitted array waits cannot take
# a name the array's spec has for other code (red team 85's evalduring:
# it did, the submission's claim having died with its process).  A
# search's gNcK names too: a held array whose spec has a variant g0c1 of
# other code makes the search's g0c1 g0c1-2 (it took g0c1, and the store
# would have read both codes as one variant once the array ran).
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --cpus 2 --set KillWait=2
mkrepo
sed -e 's|^flags: .*||' -e 's/samples: 200/samples: 5/' tests/fixtures/specs/host-redteam81-hasinc.yaml > experiments/late.yaml
sed -e '/^  ref: /a\  fast2: {kernel: tests/fixtures/adversary/host/redteam81/hasinc.c, NOP: 5, expect: ok}' \
	experiments/late.yaml > experiments/late2.yaml
echo '{"name": "fast2", "kernel": "tests/fixtures/adversary/host/redteam81/hasinc_off.c", "params": {"NOP": 2}}' |
	"$EVIDENT" eval --no-progress experiments/late.yaml > eval.jsonl 2> eval.err || { cat eval.err; fail "eval exited $?"; }
grep -q '"candidate": *"fast2"' eval.jsonl || { cat eval.jsonl; fail "eval did not answer for fast2"; }
"$EVIDENT" run --no-progress --slurm experiments/late2.yaml > run.out 2>&1
rc=$?
expect_eq "$rc" 3 "evident run --slurm of a variant named as an eval candidate of other code"
expect_contains run.out "variant 'fast2': the name is taken in this experiment's store by an eval candidate of other code"
[ -z "$(ls artifacts/pending/batches 2>/dev/null)" ] || fail "a job directory was made for a refused submission"
# an array held in the queue; then an eval of other code under its name
sed -e '/^  ref: /a\  slow2: {kernel: tests/fixtures/adversary/host/redteam81/hasinc.c, NOP: 5, expect: ok}' \
	experiments/late.yaml > experiments/late4.yaml
"$EVIDENT" run --no-progress --slurm --slurm-opt=--hold experiments/late4.yaml > run4.out 2>&1 || { cat run4.out; fail "submit (held)"; }
job=$(sed -n 's/.* as job array \([0-9]*\),.*/\1/p' run4.out)
[ -n "$job" ] || { cat run4.out; fail "no job id"; }
echo '{"name": "slow2", "kernel": "tests/fixtures/adversary/host/redteam81/hasinc_off.c", "params": {"NOP": 2}}' |
	"$EVIDENT" eval --no-progress experiments/late.yaml > eval4.jsonl 2> eval4.err
grep -q "'name' 'slow2' is taken in this experiment's store by other code (the Slurm batch" eval4.jsonl ||
	{ cat eval4.jsonl eval4.err; fail "the eval took a name the held array's spec has"; }
scancel "$job" 2>/dev/null
# a search of the experiment while an array holding g0c1 waits
cat > experiments/evo.yaml <<'Y'
name: evo
question: Which SLEEP_US is fastest?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  base: {SLEEP_US: 2000, UNUSED: 1}
correctness: {seeds: 1, seed: 5}
timing: {warmup_ms: 1, samples: 3, cache: hot}
repeats: 1
limits: {timeout_s: 20}
search:
  population: 2
  generations: 1
  seed: 8
  tunables:
    SLEEP_US: {range: [1000, 2000], step: 1000}
    UNUSED: {choices: [1, 2]}
Y
sed -e '/^search:/,$d' -e 's/^variants:/baseline: base\nvariants:/' -e 's/^  base: .*/  base: {SLEEP_US: 2000, UNUSED: 1}\n  g0c1: {SLEEP_US: 1000, UNUSED: 9}/' experiments/evo.yaml > experiments/evo-plain.yaml
"$EVIDENT" run --no-progress --slurm --slurm-opt=--hold experiments/evo-plain.yaml > run5.out 2>&1 || { cat run5.out; fail "submit evo-plain (held)"; }
job=$(sed -n 's/.* as job array \([0-9]*\),.*/\1/p' run5.out)
"$EVIDENT" run --no-progress experiments/evo.yaml > search.out 2>&1 || { cat search.out; fail "the search exited $?"; }
grep -q 'g0c1-2' search.out || { cat search.out; fail "the search took g0c1, which the held array's spec has for other code"; }
grep -q 'g0c1 ' search.out && { cat search.out; fail "the search named a candidate g0c1"; }
scancel "$job" 2>/dev/null
exit 0
