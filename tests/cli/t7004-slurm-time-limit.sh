# t7004 - a task that outlives its --time (slow: 60-95 s, so it runs only
# with EVIDENT_SLOW_TESTS=1): --time has a resolution of one minute (0:05
# becomes 00:01:00), slurmctld checks limits about every 30 s, so the kill
# comes 0-30 s after the limit; the task gets SIGTERM (SIGKILL KillWait
# later), its stderr holds "*** JOB N ON NODE CANCELLED AT T DUE TO TIME
# LIMIT ***" when its trap runs, and afterwards scontrol and squeue say
# TIMEOUT with reason TimeLimit.  `--signal=B:USR1@45` warns the batch shell
# some time before, on the same coarse clock
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
[ "${EVIDENT_SLOW_TESTS:-}" = 1 ] ||
	skip "takes 60-95 s (a one-minute --time, checked every 30 s): set EVIDENT_SLOW_TESTS=1 to run it"
slurm_up --set KillWait=2
mkdir -p shared work && cd work || fail "mkdir"
export SHARED=$TEST_TMP/shared
cat > task.sh <<'SH'
#!/bin/bash
log() { echo "$1 $(date +%s)" >> "$SHARED/log"; }
trap 'log USR1' USR1
trap 'log TERM; grep -m1 "\*\*\*" "$PWD/err.txt" > "$SHARED/reason"; exit 143' TERM
log start
while :; do sleep 0.2; done
SH
chmod +x task.sh
job=$(slurm_submit --time=0:05 --signal=B:USR1@45 -o err.txt task.sh)
expect_eq "$(slurm_field "$job" TimeLimit)" "00:01:00" "--time=0:05 rounds up to a minute"
slurm_wait_job "$job" 100
expect_eq "$(slurm_field "$job" JobState)/$(slurm_field "$job" Reason)" "TIMEOUT/TimeLimit" "state"
expect_eq "$(slurm_field "$job" ExitCode)" "143:0" "exit code (the trap's)"
expect_eq "$(squeue -h -t all -j "$job" -o '%T %r')" "TIMEOUT TimeLimit" "squeue -t all"
grep -qE "^slurmstepd-[^ ]*: error: \*\*\* JOB $job ON $SLURM_NODE CANCELLED AT [0-9T:-]+ DUE TO TIME LIMIT \*\*\*\$" \
	"$SHARED/reason" || { cat "$SHARED/reason"; fail "the trap did not read the time limit line"; }
t() { sed -n "s/^$1 //p" "$SHARED/log"; }
term=$(( $(t TERM) - $(t start) ))
[ "$term" -ge 59 ] && [ "$term" -le 95 ] || fail "SIGTERM came ${term}s after the start, for a 60 s limit"
if [ -n "$(t USR1)" ]; then
	usr1=$(( $(t USR1) - $(t start) ))
	[ "$usr1" -lt "$term" ] || fail "USR1 (${usr1}s) did not come before TERM (${term}s)"
else
	usr1=never
fi
echo "TERM after ${term}s, USR1 after ${usr1}s (limit 60 s, --signal=B:USR1@45)"
exit 0
