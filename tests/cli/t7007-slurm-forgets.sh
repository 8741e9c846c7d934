# t7007 - slurmctld forgets a finished job MinJobAge seconds after it ends
# (300 by default; 3 here), give or take its purge pass: then `scontrol
# show job` and `squeue -j` exit 1 with "Invalid job id specified", while
# the task's own stderr file (slurmstepd's "***" line included) stays; an
# executor must keep what it needs in its job folder, not in Slurm
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --set MinJobAge=3 --set KillWait=2
expect_eq "$(scontrol show config | sed -n 's/^MinJobAge *= *//p')" "3 sec" "MinJobAge"
job=$(slurm_submit -o err.txt --wrap 'sleep 30')
slurm_wait_state "$job" RUNNING 20
scancel "$job"
slurm_wait_job "$job" 20
t0=$(date +%s)
expect_eq "$(squeue -h -t all -j "$job" -o %T)" CANCELLED "right after the end"
gone=
for _ in $(seq 150); do
	if ! scontrol show job -o "$job" >/dev/null 2>&1; then gone=$(( $(date +%s) - t0 )); break; fi
	sleep 0.2
done
[ -n "$gone" ] || fail "slurmctld still knows job $job 30 s after it ended (MinJobAge=3)"
[ "$gone" -ge 2 ] || fail "job $job was forgotten after ${gone}s, before MinJobAge"
expect_exit 1 scontrol show job -o "$job"
expect_contains "$TEST_TMP/err" "Invalid job id specified"
expect_exit 1 squeue -h -t all -j "$job"
expect_contains "$TEST_TMP/err" "Invalid job id specified"
expect_exit 0 squeue -h -t all
expect_eq "$(cat "$TEST_TMP/out")" "" "squeue -t all without -j"
expect_contains err.txt "*** JOB $job ON $SLURM_NODE CANCELLED AT"
echo "forgotten ${gone}s after the end (MinJobAge=3)"
exit 0
