# t7001 - what a task of an array sees, and what is left to read, when it
# is cancelled with scancel (no accounting): every process of the task, even
# one in its own session, gets SIGTERM (with a SIGCONT); the task's own stderr
# already holds slurmstepd's "*** JOB N ON NODE CANCELLED AT T ***" line when
# the handler runs, while scontrol says COMPLETING there; what ignores
# SIGTERM gets SIGKILL after KillWait (2 s here); afterwards scontrol and
# squeue say CANCELLED with ExitCode 143:0 (trap exited 143), 0:15 (killed
# by SIGTERM), 0:9 (SIGKILL); a task cancelled while pending never ran and
# keeps its last pending reason
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
command -v python3 >/dev/null || skip "python3 is not installed (it logs the signals)"
slurm_up --cpus 4 --set KillWait=2
mkdir -p shared work && cd work || fail "mkdir"
export SHARED=$TEST_TMP/shared
# Task 0 stands for the runner: it logs each signal as it arrives, starts a
# worker in its own session that does the same, and on SIGTERM waits for the
# worker, reads slurmstepd's line from its own stderr, and exits 143.
cat > runner.py <<'PY'
import os, signal, subprocess, sys, time
shared, err = os.environ["SHARED"], sys.argv[1]
def log(s):
    with open(shared + "/log.0", "a") as f: f.write(s + "\n")
def on_term(sig, frame):
    log("TERM")
    out = subprocess.run(["scontrol", "show", "job", "-o", os.environ["SLURM_JOB_ID"]],
                         capture_output=True, text=True).stdout
    log("state " + [w for w in out.split() if w.startswith("JobState=")][0])
    worker.wait(timeout=10)
    with open(err) as f:
        open(shared + "/reason.0", "w").write([l for l in f if "***" in l][0])
    sys.exit(143)
signal.signal(signal.SIGCONT, lambda s, f: log("CONT"))
signal.signal(signal.SIGTERM, on_term)
worker = subprocess.Popen([sys.executable, "worker.py"], start_new_session=True)
while not os.path.exists(shared + "/worker.up"): time.sleep(0.05)
log("started")
while True: time.sleep(1)
PY
cat > worker.py <<'PY'
import os, signal, sys, time
shared = os.environ["SHARED"]
def log(s):
    with open(shared + "/log.0", "a") as f: f.write(s + "\n")
signal.signal(signal.SIGCONT, lambda s, f: log("worker CONT"))
signal.signal(signal.SIGTERM, lambda s, f: (log("worker TERM"), sys.exit(0)))
open(shared + "/worker.up", "w").close()
while True: time.sleep(1)
PY
cat > task.sh <<'SH'
#!/bin/bash
i=$SLURM_ARRAY_TASK_ID
log() { echo "$*" >> "$SHARED/log.$i"; }
case $i in
0)	exec python3 runner.py "$PWD/err-${SLURM_ARRAY_JOB_ID}_$i.txt" ;;
1)	log started; exec sleep 30 ;;              # no trap: dies of SIGTERM
2)	trap '' TERM; log started                  # ignores SIGTERM: SIGKILL
	while :; do date +%s.%N >> "$SHARED/alive.2"; sleep 0.1; done ;;
*)	log started ;;
esac
SH
chmod +x task.sh
job=$(slurm_submit --array=0-3%3 -o 'out-%A_%a.txt' -e 'err-%A_%a.txt' task.sh)
for i in 0 1 2; do
	for _ in $(seq 100); do grep -qx started "$SHARED/log.$i" 2>/dev/null && break; sleep 0.2; done
	grep -qx started "$SHARED/log.$i" 2>/dev/null || fail "task $i did not start within 20s"
done
expect_eq "$(slurm_field "${job}_3" JobState)/$(slurm_field "${job}_3" Reason)" "PENDING/JobArrayTaskLimit" "task 3 waits for the %3"
sleep 0.5
t0=$(date +%s.%N)
scancel "$job" || fail "scancel $job"
slurm_wait_job "$job" 20

j0=$(slurm_field "${job}_0" JobId)
for i in 0 1 2 3; do
	expect_eq "$(slurm_field "${job}_$i" JobState)" CANCELLED "task $i state"
done
# task 0: SIGTERM to the task and to its worker in another session (a
# SIGCONT comes with it, just before; Python may run the two handlers in
# either order, so that one is not checked here)
expect_eq "$(grep -vE '^(state|worker)|CONT' "$SHARED/log.0" | tr '\n' ' ')" "started TERM " "signals of task 0"
expect_eq "$(grep '^worker' "$SHARED/log.0" | grep -v CONT | tr '\n' ' ')" "worker TERM " "signals of its worker"
expect_contains "$SHARED/log.0" "state JobState=COMPLETING"
grep -qE "^slurmstepd-[^ ]*: error: \*\*\* JOB $j0 ON $SLURM_NODE CANCELLED AT [0-9-]+T[0-9:]+ \*\*\*\$" "$SHARED/reason.0" ||
	{ cat "$SHARED/reason.0"; fail "task 0 did not find slurmstepd's line in its stderr"; }
expect_eq "$(slurm_field "${job}_0" ExitCode)" "143:0" "task 0 exit code (its trap's exit 143)"
expect_eq "$(slurm_field "${job}_0" Reason)" None "task 0 reason"
# task 1: killed by SIGTERM
expect_eq "$(slurm_field "${job}_1" ExitCode)" "0:15" "task 1 exit code (signal 15)"
expect_contains "err-${job}_1.txt" "CANCELLED AT"
# task 2: ignored SIGTERM, lived on for KillWait (2 s), then SIGKILL
expect_eq "$(slurm_field "${job}_2" ExitCode)" "0:9" "task 2 exit code (signal 9)"
lived=$(awk -v a="$t0" -v b="$(grep . "$SHARED/alive.2" | tail -1)" 'BEGIN { printf "%.1f", b - a }')
awk -v l="$lived" 'BEGIN { exit !(l >= 1.5 && l <= 6) }' || fail "task 2 lived ${lived}s after scancel, KillWait is 2s"
# task 3: cancelled while pending: never ran, no output, reason left as it was
[ ! -e "$SHARED/log.3" ] || fail "task 3 ran"
[ ! -e "out-${job}_3.txt" ] && [ ! -e "err-${job}_3.txt" ] || fail "task 3 has an output file"
expect_eq "$(slurm_field "${job}_3" Reason)" JobArrayTaskLimit "task 3 keeps its pending reason"
expect_eq "$(slurm_field "${job}_3" ExitCode)" "0:0" "task 3 exit code"
expect_eq "$(slurm_tasks "$job" | sort -n | awk '{ print $1 ":" $3 }' | tr '\n' ' ')" \
	"0:CANCELLED 1:CANCELLED 2:CANCELLED 3:CANCELLED " "squeue -r -t all"
exit 0
