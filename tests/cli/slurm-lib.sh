# slurm-lib.sh - a real one-node Slurm for a CLI test (source it after
# lib.sh).  docs/slurm.md has what these tests established about Slurm.
#
#   slurm_up [START-OPTIONS]    start a cluster in $TEST_TMP/slurm with
#                               scripts/slurm/start (options passed on: --gpus
#                               N, --set Key=Value, --line TEXT), export
#                               SLURM_CONF and SLURM_NODE (the node's name),
#                               and stop it when the test exits (trap EXIT;
#                               a test with its own EXIT trap calls slurm_down
#                               from it).  Skips the test (77) where Slurm
#                               cannot run here.
#   slurm_once                  skip in the sanitized pass of `make test`: for
#                               tests of Slurm itself, that run no evident
#                               code (call it before slurm_up, on a line of
#                               its own: lib.sh's plain_pass_only, which
#                               tests/cli/run.sh looks for, as this name too)
#   slurm_down                  stop it now (scripts/slurm/stop); idempotent
#   slurm_submit ARGS...        sbatch --parsable ARGS; prints the job id,
#                               fails the test if sbatch does
#   slurm_wait_job JOB [SEC]    wait (default 30 s) until no task of JOB
#                               (a job or an array job id) is pending,
#                               running or completing; fails the test with
#                               squeue's view on timeout
#   slurm_wait_state JOB STATE [SEC]
#                               wait until JOB (one task: 7 or 7_3) is in
#                               STATE (RUNNING, PENDING, ...)
#   slurm_tasks JOB             one line per task of JOB, finished ones too
#                               while slurmctld remembers them (MinJobAge):
#                               "TASK JOBID STATE REASON NODE" (TASK is N/A
#                               for a job that is not an array)
#   slurm_field JOB KEY         the value of KEY in `scontrol show job -o
#                               JOB` (JobState, Reason, ExitCode...); for a
#                               single job or task
#
# Every wait is bounded: a test must finish within a minute.

slurm_up() {
	local out rc
	# inside t0040's clone (its smoke run, should one name a Slurm test)
	# the clusters are left to the outer run
	[ -z "${EVIDENT_QUICKSTART_INNER:-}" ] || skip "inside the quick-start test's own 'make test' (the outer run starts the clusters)"
	SLURM_DIR=$TEST_TMP/slurm
	out=$("$REPO/scripts/slurm/start" "$SLURM_DIR" "$@" 2>&1)
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$(printf '%s\n' "$out" | sed -n 's/^skip: //p' | head -1)"
	fi
	[ $rc -eq 0 ] || { printf '%s\n' "$out"; fail "scripts/slurm/start exited $rc"; }
	trap slurm_down EXIT
	. "$SLURM_DIR/env" || fail "no $SLURM_DIR/env"
	SLURM_NODE=$(sinfo -h -o %N)
	export SLURM_CONF SLURM_NODE SLURM_DIR
}

slurm_once() { plain_pass_only "it tests Slurm, not evident"; }

slurm_down() {
	[ -n "${SLURM_DIR:-}" ] && [ -d "$SLURM_DIR" ] && "$REPO/scripts/slurm/stop" "$SLURM_DIR"
	return 0
}

slurm_submit() {
	local id
	id=$(sbatch --parsable "$@" 2>"$TEST_TMP/sbatch.err") ||
		{ cat "$TEST_TMP/sbatch.err"; fail "sbatch $* failed"; }
	echo "${id%%;*}"
}

slurm_tasks() {
	squeue -h -r -t all -j "$1" -o '%K %A %T %r %N' 2>/dev/null
}

slurm_field() {
	scontrol show job -o "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}

slurm_wait_job() {
	local job=$1 sec=${2:-30} i left
	for ((i = 0; i < sec * 5; i++)); do
		# A job slurmctld no longer knows (purged after MinJobAge) is done:
		# squeue then says "Invalid job id specified" and exits 1.
		left=$(squeue -h -r -j "$job" -o %i 2>"$TEST_TMP/squeue.err" \
			-t PENDING,RUNNING,COMPLETING,CONFIGURING,SUSPENDED,REQUEUED,RESIZING,SIGNALING,STAGE_OUT) ||
			grep -q "Invalid job id specified" "$TEST_TMP/squeue.err" ||
			{ cat "$TEST_TMP/squeue.err"; fail "squeue failed while waiting for job $job"; }
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	squeue -r -t all -j "$job" -o '%i %A %T %r %N' >&2
	fail "job $job did not finish within ${sec}s"
}

slurm_wait_state() {
	local job=$1 want=$2 sec=${3:-30} i
	for ((i = 0; i < sec * 5; i++)); do
		[ "$(slurm_field "$job" JobState)" = "$want" ] && return 0
		sleep 0.2
	done
	scontrol show job -o "$job" >&2
	fail "job $job is not $want after ${sec}s (it is '$(slurm_field "$job" JobState)')"
}
