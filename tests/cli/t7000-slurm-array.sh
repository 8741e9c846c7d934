# t7000 - a real Slurm runs `sbatch --array=0-5%2` the way the Slurm
# executor will: every task runs once, at most 2 at a time, each writes its
# own file into a shared folder, and sees SLURM_ARRAY_JOB_ID,
# SLURM_ARRAY_TASK_ID, SLURM_JOB_ID and SLURMD_NODENAME as docs/slurm.md
# says; afterwards squeue -r -t all and scontrol tell each task's end
# (COMPLETED 0:0, or FAILED NonZeroExitCode 3:0 for the task that exits 3)
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --cpus 4    # room for 4 at once: the %2 is what must hold them to 2
mkdir -p shared work && cd work || fail "mkdir"
cat > task.sh <<'SH'
#!/bin/bash
f=$SHARED/task.$SLURM_ARRAY_TASK_ID
{
	echo "start $(date +%s.%N)"
	env | grep -E '^SLURM(D)?_' | sort
	echo "PWD=$PWD"
} > "$f.tmp"
sleep 1
echo "end $(date +%s.%N)" >> "$f.tmp"
mv "$f.tmp" "$f"
echo "stdout of task $SLURM_ARRAY_TASK_ID"
[ "$SLURM_ARRAY_TASK_ID" = 4 ] && exit 3
exit 0
SH
chmod +x task.sh
export SHARED=$TEST_TMP/shared
job=$(slurm_submit --array=0-5%2 -o 'out-%A_%a.txt' task.sh)
[[ $job =~ ^[0-9]+$ ]] || fail "sbatch --parsable said '$job'"
slurm_wait_job "$job" 40

# every task ran exactly once and wrote its file
expect_eq "$(ls "$SHARED" | sort | tr '\n' ' ')" "task.0 task.1 task.2 task.3 task.4 task.5 " "files in the shared folder"
ids=()
for i in 0 1 2 3 4 5; do
	f=$SHARED/task.$i
	v() { sed -n "s/^$1=//p" "$f"; }
	expect_eq "$(v SLURM_ARRAY_JOB_ID)" "$job" "task $i SLURM_ARRAY_JOB_ID"
	expect_eq "$(v SLURM_ARRAY_TASK_ID)" "$i" "task $i SLURM_ARRAY_TASK_ID"
	expect_eq "$(v SLURM_ARRAY_TASK_COUNT)/$(v SLURM_ARRAY_TASK_MIN)/$(v SLURM_ARRAY_TASK_MAX)" "6/0/5" "task $i count/min/max"
	expect_eq "$(v SLURMD_NODENAME)" "$SLURM_NODE" "task $i SLURMD_NODENAME"
	expect_eq "$(v SLURMD_NODENAME)" "$(hostname -s)" "the node is this host"
	expect_eq "$(v SLURM_SUBMIT_DIR)" "$TEST_TMP/work" "task $i SLURM_SUBMIT_DIR"
	expect_eq "$(v PWD)" "$TEST_TMP/work" "task $i runs in the submit folder"
	expect_eq "$(v SLURM_CONF)" "$SLURM_CONF" "task $i SLURM_CONF"
	expect_eq "$(v SLURM_CPUS_ON_NODE)" 1 "task $i CPUs"
	[[ $(v SLURM_JOB_ID) =~ ^[0-9]+$ ]] || fail "task $i SLURM_JOB_ID '$(v SLURM_JOB_ID)'"
	ids+=("$(v SLURM_JOB_ID)")
	expect_eq "$(cat "out-${job}_$i.txt")" "stdout of task $i" "task $i stdout file (%A_%a)"
done
# each task is its own job; one of them inherits the array's own id
expect_eq "$(printf '%s\n' "${ids[@]}" | sort -u | wc -l)" 6 "distinct SLURM_JOB_IDs"
expect_eq "$(printf '%s\n' "${ids[@]}" | grep -cx "$job")" 1 "tasks whose SLURM_JOB_ID is the array's id"

# %2: never more than two tasks at once
over=$(for i in 0 1 2 3 4 5; do
	echo "$(sed -n 's/^start //p' "$SHARED/task.$i") $(sed -n 's/^end //p' "$SHARED/task.$i")"
done | awk '{ s[NR] = $1; e[NR] = $2 }
	END { m = 0; for (i = 1; i <= NR; i++) { n = 0
		for (j = 1; j <= NR; j++) if (s[j] <= s[i] && s[i] < e[j]) n++
		if (n > m) m = n }; print m }')
expect_eq "$over" 2 "most tasks running at once under %2 on 4 slots"

# how the end of each task reads without accounting
slurm_tasks "$job" | sort -n > tasks
expect_eq "$(awk '{ print $1, $3, $4, $5 }' tasks | tr '\n' ';')" \
	"0 COMPLETED None $SLURM_NODE;1 COMPLETED None $SLURM_NODE;2 COMPLETED None $SLURM_NODE;3 COMPLETED None $SLURM_NODE;4 FAILED NonZeroExitCode $SLURM_NODE;5 COMPLETED None $SLURM_NODE;" \
	"squeue -r -t all"
expect_eq "$(awk '{ print $2 }' tasks | sort -n | tr '\n' ' ')" "$(printf '%s\n' "${ids[@]}" | sort -n | tr '\n' ' ')" "squeue's job ids are the tasks' SLURM_JOB_IDs"
expect_eq "$(slurm_field "${job}_0" ExitCode)" "0:0" "ExitCode of task 0"
expect_eq "$(slurm_field "${job}_4" ExitCode)" "3:0" "ExitCode of task 4"
expect_eq "$(slurm_field "${job}_4" JobState)/$(slurm_field "${job}_4" Reason)" "FAILED/NonZeroExitCode" "task 4"
expect_eq "$(slurm_field "${job}_4" ArrayJobId)/$(slurm_field "${job}_4" ArrayTaskId)" "$job/4" "scontrol names the task"
sacct >/dev/null 2>&1 && fail "sacct works: this cluster was meant to have no accounting"
exit 0
