# t7003 - a node that fails under running tasks (simulated with scontrol
# update State=DOWN; slurmd lives on, so slurmstepd still writes "*** JOB N
# ON NODE CANCELLED AT T DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS
# ***" to each task's stderr and sends SIGTERM): a task submitted with
# --no-requeue ends NODE_FAIL (reason NodeDown); one submitted without it
# (batch jobs are requeued by default) goes back to PENDING with Restarts=1
# and reason BeginTime, to run again later; the node comes back by itself
# (ReturnToService=2)
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --cpus 2 --set KillWait=2
mkdir -p shared work && cd work || fail "mkdir"
export SHARED=$TEST_TMP/shared
cat > task.sh <<'SH'
#!/bin/bash
trap 'grep -m1 "\*\*\*" "$PWD/err-$SLURM_JOB_ID.txt" > "$SHARED/reason.$SLURM_JOB_ID"; exit 143' TERM
echo "${SLURM_RESTART_COUNT:-0}" >> "$SHARED/started.$SLURM_JOB_ID"
while :; do sleep 0.2; done
SH
chmod +x task.sh
norequeue=$(slurm_submit --no-requeue -o 'err-%j.txt' task.sh)
requeue=$(slurm_submit -o 'err-%j.txt' task.sh)
for j in $norequeue $requeue; do
	slurm_wait_state "$j" RUNNING 20
	for _ in $(seq 50); do [ -e "$SHARED/started.$j" ] && break; sleep 0.2; done
	[ -e "$SHARED/started.$j" ] || fail "job $j did not start"
done
expect_eq "$(slurm_field "$norequeue" Requeue)/$(slurm_field "$requeue" Requeue)" "0/1" "Requeue flags"
scontrol update NodeName="$SLURM_NODE" State=DOWN Reason="simulated failure" || fail "scontrol update"
slurm_wait_job "$norequeue" 20
# slurmctld sets Restarts before the reason: wait for all three (seen: PENDING/None/1 for a moment)
rq() { echo "$(slurm_field "$requeue" JobState)/$(slurm_field "$requeue" Reason)/$(slurm_field "$requeue" Restarts)"; }
for _ in $(seq 50); do [ "$(rq)" = PENDING/BeginTime/1 ] && break; sleep 0.2; done

expect_eq "$(slurm_field "$norequeue" JobState)/$(slurm_field "$norequeue" Reason)" "NODE_FAIL/NodeDown" "the --no-requeue job"
expect_eq "$(rq)" "PENDING/BeginTime/1" "the requeued job"
for j in $norequeue $requeue; do
	for _ in $(seq 25); do [ -s "$SHARED/reason.$j" ] && break; sleep 0.2; done
	grep -qE "^slurmstepd-[^ ]*: error: \*\*\* JOB $j ON $SLURM_NODE CANCELLED AT [0-9T:-]+ DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS \*\*\*\$" \
		"$SHARED/reason.$j" || { cat "$SHARED/reason.$j"; fail "job $j's trap did not read the node failure line"; }
done
expect_eq "$(squeue -h -t all -j "$norequeue" -o '%T %r')" "NODE_FAIL NodeDown" "squeue -t all"
# the requeued job waits: it becomes eligible again later (EligibleTime)
eligible=$(date -d "$(slurm_field "$requeue" EligibleTime)" +%s) || fail "EligibleTime"
[ "$eligible" -gt "$(date +%s)" ] || fail "the requeued job is eligible at once"
# the node returns to service on its own
for _ in $(seq 50); do [ "$(sinfo -h -n "$SLURM_NODE" -o %t)" = idle ] && break; sleep 0.2; done
expect_eq "$(sinfo -h -n "$SLURM_NODE" -o %t)" idle "the node after the failure"
echo "requeued job eligible in $((eligible - $(date +%s)))s"
scancel "$requeue"
exit 0
