# t7006 - scripts/slurm/start and stop themselves: two clusters run side by
# side (their own ports, munge sockets and state) without seeing each
# other's jobs; start refuses a folder that has a running cluster, and skips
# (77, "skip: slurm: needs root ...") for a user other than root; stop ends
# one cluster's daemons, its job processes (even one in its own session that
# ignores SIGTERM) and munged's folder under /run, leaves the other cluster
# running, and may run twice
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up
A=$SLURM_DIR B=$TEST_TMP/slurm-b
trap '"$REPO/scripts/slurm/stop" "$B" 2>/dev/null; slurm_down' EXIT
"$REPO/scripts/slurm/start" "$B" > b.out 2>&1 || { cat b.out; fail "a second cluster did not start"; }
expect_eq "$(cat b.out)" "export SLURM_CONF=$B/slurm.conf" "start's output"
expect_eq "$(cat "$B/env")" "export SLURM_CONF=$B/slurm.conf" "DIR/env"
port() { sed -n "s/^$2=//p" "$1/slurm.conf"; }
[ "$(port "$A" SlurmctldPort)" != "$(port "$B" SlurmctldPort)" ] || fail "both clusters on one port"
[ "$(port "$A" AuthInfo)" != "$(port "$B" AuthInfo)" ] || fail "both clusters on one munge socket"

# a job in B, invisible to A; it leaves a TERM-proof process in its own session
mkdir -p work && cd work || fail "mkdir"
cat > task.sh <<'SH'
#!/bin/bash
setsid bash -c 'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 0.2; done' &
while :; do sleep 0.2; done
SH
chmod +x task.sh
jb=$(SLURM_CONF=$B/slurm.conf slurm_submit -o /dev/null task.sh)
SLURM_CONF=$B/slurm.conf slurm_wait_state "$jb" RUNNING 20
for _ in $(seq 50); do [ -s stubborn.pid ] && break; sleep 0.2; done
stubborn=$(cat stubborn.pid) && kill -0 "$stubborn" || fail "the job's process did not start"
expect_eq "$(squeue -h -t all -o %i | wc -l)" 0 "jobs cluster A sees"
ja=$(slurm_submit -o /dev/null --wrap true)
slurm_wait_job "$ja" 20

# start refuses a folder whose cluster runs
expect_exit 1 "$REPO/scripts/slurm/start" "$B"
expect_contains "$TEST_TMP/err" "already has a cluster"
# not root: skip
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
	# a copy nobody can read: $REPO may lie under a private folder (t0040's clone)
	pub=$(mktemp -d /tmp/evident-t7006.XXXXXX) || fail "mktemp"
	cp "$REPO/scripts/slurm/start" "$pub/start" && chmod 755 "$pub" && chmod 644 "$pub/start" || fail "copy start"
	expect_exit 77 runuser -u nobody -- bash "$pub/start" "$pub/nobody"
	rm -rf "$pub"
	expect_contains "$TEST_TMP/out" "skip: slurm: needs root"
fi

# stop B: nothing of it is left, A runs on
pids=$(cat "$B"/run/slurmctld.pid "$B"/run/slurmd.pid "$B"/munge/munged.pid) || fail "pid files"
mdir=$(readlink "$B/munge")
expect_exit 0 "$REPO/scripts/slurm/stop" "$B"
# alive: exists and is no zombie (PID 1 may take a while to reap the daemons)
alive() { local st; read -r st 2>/dev/null < "/proc/$1/stat" && st=${st##*) } && [ "${st%% *}" != Z ]; }
for p in $pids $stubborn; do ! alive "$p" || { ps -o pid,ppid,stat,args -p "$p"; fail "process $p of cluster B is still alive"; }; done
for e in /proc/[0-9]*/environ; do
	p=${e#/proc/}; p=${p%/environ}
	tr '\0' '\n' 2>/dev/null < "$e" | grep -qx "SLURM_CONF=$B/slurm.conf" &&
		tr '\0' '\n' 2>/dev/null < "$e" | grep -q '^SLURM_JOB_ID=' && alive "$p" && fail "a job process of B is left: $p"
done
[ ! -e "$mdir" ] && [ ! -e "$B/munge" ] || fail "munged's folder $mdir is left"
[ ! -e "$B/env" ] || fail "B/env is left after stop"
expect_exit 0 "$REPO/scripts/slurm/stop" "$B"
expect_eq "$(sinfo -h -o %t)" idle "cluster A after B stopped"
expect_exit 1 "$REPO/scripts/slurm/stop" "$TEST_TMP/no-such-cluster"
exit 0
