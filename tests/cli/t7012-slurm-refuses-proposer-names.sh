# t7012 - `evident run --slurm` refuses a spec variant's name that an eval
# candidate of other code holds in the store, as a local run does (t0192).
# Before (red team 84, tests/fixtures/adversary/host/redteam84/README.md):
# the submission took `fast2`, the store then held two codes under it, and
# `validated fast2` was contradicted by the candidate's run.
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
exit 0
