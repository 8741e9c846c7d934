# t7002 - a task preempted by a job of a higher-priority partition
# (PreemptType=preempt/partition_prio, PreemptMode=CANCEL) gets SIGTERM, its
# stderr holds "*** JOB N ON NODE CANCELLED AT T DUE TO PREEMPTION ***" when
# its trap runs, and afterwards scontrol and squeue say PREEMPTED (reason
# None); the other task of the array runs on
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --cpus 2 --set KillWait=2 --set PreemptType=preempt/partition_prio --set PreemptMode=CANCEL \
	--line "PartitionName=high Nodes=ALL PriorityTier=2 MaxTime=INFINITE State=UP"
mkdir -p shared work && cd work || fail "mkdir"
export SHARED=$TEST_TMP/shared
cat > task.sh <<'SH'
#!/bin/bash
i=${SLURM_ARRAY_TASK_ID:-high}
trap 'grep -m1 "\*\*\*" "$PWD/err-$SLURM_JOB_ID.txt" > "$SHARED/reason.$i"; exit 143' TERM
echo started > "$SHARED/started.$i"
# Slurm signals the deepest processes first: a `sleep` may die before the
# shell gets its SIGTERM, so the shell must not end when its child does.
while :; do sleep 0.2; done
SH
chmod +x task.sh
low=$(slurm_submit --array=0-1 -o 'err-%j.txt' task.sh)
slurm_wait_state "${low}_0" RUNNING 20
slurm_wait_state "${low}_1" RUNNING 20
for i in 0 1; do
	for _ in $(seq 50); do [ -e "$SHARED/started.$i" ] && break; sleep 0.2; done
	[ -e "$SHARED/started.$i" ] || fail "task $i did not start"
done
high=$(slurm_submit -p high -o /dev/null --wrap 'sleep 30')
slurm_wait_state "$high" RUNNING 20
sleep 1
preempted=
for i in 0 1; do
	[ "$(slurm_field "${low}_$i" JobState)" = PREEMPTED ] && preempted=$i
done
[ -n "$preempted" ] || { scontrol show job -o "$low"; fail "no task of $low was preempted"; }
other=$((1 - preempted))
id=$(slurm_field "${low}_$preempted" JobId)
expect_eq "$(slurm_field "${low}_$preempted" Reason)" None "reason of the preempted task"
expect_eq "$(slurm_field "${low}_$preempted" ExitCode)" "143:0" "exit code of the preempted task"
expect_eq "$(slurm_field "${low}_$other" JobState)" RUNNING "the other task"
grep -qE "^slurmstepd-[^ ]*: error: \*\*\* JOB $id ON $SLURM_NODE CANCELLED AT [0-9T:-]+ DUE TO PREEMPTION \*\*\*\$" \
	"$SHARED/reason.$preempted" || { cat "$SHARED/reason.$preempted"; fail "the trap did not read the preemption line"; }
expect_eq "$(slurm_tasks "$low" | awk -v t="$preempted" '$1 == t { print $3, $4 }')" "PREEMPTED None" "squeue -r -t all"
scancel "$low" "$high"
exit 0
