# t7011 - a kernel that hangs past its Slurm task's --time is the runner's
# `timeout`, a failure of its code, not Slurm's kill (`aborted`, which a
# `validated` claim leaves out as nothing judged).  The task reads its
# end (SLURM_JOB_END_TIME, else scontrol's EndTime, else the submission's
# --time) and starts a job only with all its workers' timeouts (the main
# shape's and the extra shape's, 2 x timeout_s on the host) and 20 s before
# that end, else records it aborted, "not started", and says to give more
# --time (red teams 84 and 85: an honest late job, or its extra shape, cut
# short was a timeout; run_ctx.h end_epoch).  Before (red team 83's hang_coin,
# tests/fixtures/adversary/host/redteam83/README.md), the hung runs were
# `aborted` by the time limit and `validated hang` was supported on the
# processes that had not hung.  Slow (a one-minute --time): runs only with
# EVIDENT_SLOW_TESTS=1.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
[ "${EVIDENT_SLOW_TESTS:-}" = 1 ] ||
	skip "takes 60-90 s (a one-minute --time): set EVIDENT_SLOW_TESTS=1 to run it"
slurm_up --cpus 2 --set KillWait=2
mkrepo
sed -e 's/hang = (b \& 1) \&\& x->dims\[0\] == 256;/hang = x->dims[0] == 256; (void)b;/' \
	tests/fixtures/adversary/host/redteam83/hang_coin.c > kernels/hang_always.c
grep -q 'hang = x->dims\[0\] == 256; (void)b;' kernels/hang_always.c || fail "the kernel did not take its always"
cat > experiments/hang.yaml <<'Y'
name: hang
problem: rowsum
backend: host
shape: {R: 256, C: 256}
baseline: hang
variants:
  hang: {kernel: kernels/hang_always.c}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 12}
repeats: 1
Y
# the limit given to sbatch directly, which evident's own --time does not
# know (red team 84): the task reads it from scontrol
"$EVIDENT" run --no-progress --slurm --slurm-opt=--time=1 experiments/hang.yaml > run.out 2>&1 || { cat run.out; fail "submit"; }
batch=$(sed -n 's/^batch \([^:]*\): .*/\1/p' run.out)
job=$(sed -n 's/.* as job array \([0-9]*\),.*/\1/p' run.out)
[ -n "$batch" ] && [ -n "$job" ] || { cat run.out; fail "no batch or job id"; }
slurm_wait_job "$job" 120
"$EVIDENT" wait --no-progress "$batch" > wait.out 2>&1
python3 - "$batch" <<'PY' || { cat wait.out; fail "the hung run is not a timeout"; }
import json, os, sys
runs = [json.load(open('artifacts/runs/' + f)) for f in os.listdir('artifacts/runs')]
runs = [m for m in runs if m.get('kind') == 'variant' and m['batch_id'] == sys.argv[1]]
assert len(runs) == 1, len(runs)
print(runs[0]['outcome'], runs[0].get('reason'))
assert runs[0]['outcome'] == 'timeout', runs[0]['outcome']
PY
# a job whose timeout does not fit before the task's end is not started
sed -i 's/timeout_s: 12}/timeout_s: 300}/' experiments/hang.yaml
"$EVIDENT" run --no-progress --slurm --time 1 experiments/hang.yaml > run2.out 2>&1 || { cat run2.out; fail "submit 2"; }
batch2=$(sed -n 's/^batch \([^:]*\): .*/\1/p' run2.out)
job2=$(sed -n 's/.* as job array \([0-9]*\),.*/\1/p' run2.out)
slurm_wait_job "$job2" 60
"$EVIDENT" wait --no-progress "$batch2" > wait2.out 2>&1
python3 - "$batch2" <<'PY' || { cat wait2.out; fail "the job that could not fit was not left unstarted"; }
import json, os, sys
runs = [json.load(open('artifacts/runs/' + f)) for f in os.listdir('artifacts/runs')]
runs = [m for m in runs if m.get('kind') == 'variant' and m['batch_id'] == sys.argv[1]]
assert len(runs) == 1, len(runs)
print(runs[0]['outcome'], runs[0].get('reason'))
assert runs[0]['outcome'] == 'aborted', runs[0]['outcome']
assert 'not started' in runs[0]['reason'] and 'more --time' in runs[0]['reason'], runs[0]['reason']
PY
exit 0
