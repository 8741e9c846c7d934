# t0236: red team 132, gap 2: a job of the code begun and never finished
# counts against a value claim.  The hunt SIGKILLed each try's process
# group as soon as a process of the code showed slow, before its run
# record: the try left its begun markers (the batch's, naming the code,
# and the job's) and no run of the code, and the value rule
# (audit_value.c value_killed_tries) read killed tries by their runs
# alone, so such a try "said nothing" and a claim on the one finished
# batch stood.  SIGINT (Ctrl-C's signal) at the same moment did the same
# through a recorded batch: the job cut short is recorded aborted, which
# the rule read as not the code's (value_stopped_try).  Here the stop is
# deterministic: each stopped try naps 100 ms a launch (20 samples:
# seconds per job) and is stopped as soon as its job's run marker
# (pending/RUN_ID.json, variant base) is there, long before its record;
# the batch's begun marker (committed, unlike the job's) lists the job
# before that marker is written, so a clone reads the same.  Before:
# supported after each stop; now 1 of 2 (unsupported, no majority) after
# the SIGINT and 1 of 3 (contradicted) after the SIGKILL, the line saying
# why and what to do; a try killed during another code's job says
# nothing; two more finished batches of the honest code then hold the
# claim (3 of 5), supported.
. "$REPO/tests/cli/lib.sh"
runs_alone_light "kills runs at a begun job; its kernels nap"
mkrepo git host/fixture_common.h
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"
G() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p kernels/test
cat > kernels/test/nap.c <<'C'
/* nap.c - correct attention, then a nap of NAP_US microseconds a launch;
 * EVIDENT_T0236_NAP_US, where set, naps that long instead */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include "../../tests/fixtures/host/fixture_common.h"

static int launch_nap(struct ev_launch *l)
{
	const char *e = getenv("EVIDENT_T0236_NAP_US");
	long us = e ? atol(e) : NAP_US;
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	attn_ok(l, NULL);
	nanosleep(&ts, NULL);
	return 0;
}

EVIDENT_DEFINE_KERNEL("nap", "host", "attention_fwd", NULL, launch_nap, NULL, EV_PARAM(NAP_US))
C
cat > experiments/k.yaml <<'Y'
name: k
problem: attention_fwd
backend: host
kernel: kernels/test/nap.c
shape: {B: 1, H: 1, S: 16, D: 16}
repeats: 3
variants:
  base: {NAP_US: 5000}
correctness: {seeds: 1}
timing: {warmup_ms: 2, samples: 20, cache: hot}
Y
# another variant of the kernel file (another binary), alone in its spec
sed 's/^name: k$/name: k2/; s/^  base: {NAP_US: 5000}$/  other: {NAP_US: 7000}/' experiments/k.yaml > experiments/k2.yaml
grep -q '^  other: ' experiments/k2.yaml || fail "spec copy"
G add -A && G commit -qm spec || fail "commit"
S=artifacts
newest_batch() { ls $S/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }
# kill_at_begun_job VARIANT CMD...: start CMD (its own process group),
# SIGKILL the group as soon as a job's begun marker of VARIANT is in
# pending/ (written before the job builds or runs); prints the job's
# run id and its batch's id
kill_at_begun_job() {
	local sig=KILL
	[ "$1" = INT ] && { sig=INT; shift; }
	local var=$1 before pid n=0 job=""
	shift
	before=$(ls $S/pending 2>/dev/null | sort)
	setsid "$@" >"$TEST_TMP/killed.out" 2>&1 &
	pid=$!
	while [ $n -lt 1200 ]; do
		for m in $S/pending/*.json; do
			[ -e "$m" ] || continue
			case "$m" in *-batch.json) continue ;; esac
			echo "$before" | grep -qxF "$(basename "$m")" && continue
			grep -qF "\"variant\": \"$var\"" "$m" && job=$(basename "$m" .json)
		done
		[ -n "$job" ] && break
		sleep 0.02
		n=$((n + 1))
	done
	kill -"$sig" -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ -n "$job" ] || { cat "$TEST_TMP/killed.out" >&2; fail "no job of $var begun: $*"; }
	local bid
	if [ $sig = INT ]; then
		# Ctrl-C's signal: the batch is recorded, interrupted, its job of
		# $var aborted
		[ -e "$S/runs/$job.json" ] || { cat "$TEST_TMP/killed.out" >&2; fail "SIGINT: job $job not recorded"; }
		bid=$(jget "$S/runs/$job.json" "d['batch_id']")
		expect_eq "$(jget "$S/runs/$bid.json" "d['interrupted']")" True "batch $bid interrupted"
		expect_eq "$(jget "$S/runs/$job.json" "d['outcome'] + ': ' + d['reason'][:15]")" "aborted: interrupted by " "job $job"
		echo "$job $bid"
		return
	fi
	bid=$(comm -13 <(echo "$before") <(ls $S/pending | sort) | grep -- '-batch.json$' | sed 's/\.json$//')
	[ -n "$bid" ] && [ "$(echo "$bid" | wc -l)" = 1 ] || fail "job $job: no one new batch begun marker: $bid"
	[ ! -e "$S/runs/$job.json" ] && [ ! -e "$S/runs/$bid.json" ] || fail "job $job or batch $bid was recorded before the kill"
	! grep -lqF "\"batch_id\": \"$bid\"" $S/runs/*.json || fail "a run of $bid was recorded before the kill"
	echo "$job $bid"
}

expect_exit 0 "$EVIDENT" run --no-progress experiments/k.yaml
A=$(newest_batch)
A_med=$(jget "$S/runs/$A.json" "'%.0f' % d['variants'][0]['stats']['median']")
cat > claims.md <<MD
The kernel takes $A_med us. <!-- claim: value experiment=k variant=base stat=median_us value=${A_med}us tol=5% -->
MD
expect_exit 0 "$EVIDENT" audit --no-untraced claims.md
expect_contains "$TEST_TMP/out" 'audit: 1 claim: 1 supported'

# a try killed during another code's job: says nothing of base's
read -r J0 K0 <<<"$(EVIDENT_T0236_NAP_US=100000 kill_at_begun_job other "$EVIDENT" run --no-progress experiments/k2.yaml)" || exit 1
[ -n "$K0" ] || fail "no killed try"
expect_exit 0 "$EVIDENT" audit --no-untraced claims.md
expect_contains "$TEST_TMP/out" 'audit: 1 claim: 1 supported'
expect_not_contains "$TEST_TMP/out" "begun"

# a try stopped by Ctrl-C's SIGINT while base's job ran: recorded, its
# job aborted, a job cut short: against (before: aborted, not the code's,
# and the try said nothing)
read -r J3 I3 <<<"$(EVIDENT_T0236_NAP_US=100000 kill_at_begun_job INT base "$EVIDENT" run --no-progress experiments/k.yaml)" || exit 1
"$EVIDENT" audit --no-untraced claims.md >"$TEST_TMP/out" 2>&1
expect_contains "$TEST_TMP/out" "claims.md:1: unsupported: value k/base median_us=${A_med}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 2 batches of the same code on "
expect_contains "$TEST_TMP/out" "interrupted, a job of the code begun and never finished (aborted, interrupted) ($(jget "$S/runs/$I3.json" "d['run_id']"))"
expect_contains "$TEST_TMP/out" "1 interrupted try had a job of the code cut short (aborted, interrupted before it finished), which counts against the claim"
expect_contains "$TEST_TMP/out" "rerunning the experiment to finished batches, most of which must hold the value"

# a try killed while base's job ran
read -r J1 K1 <<<"$(EVIDENT_T0236_NAP_US=100000 kill_at_begun_job base "$EVIDENT" run --no-progress experiments/k.yaml)" || exit 1
expect_exit 1 "$EVIDENT" audit --no-untraced claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: contradicted: value k/base median_us=${A_med}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 3 batches of the same code on "
expect_contains "$TEST_TMP/out" "killed, 1 job(s) of the code begun and never finished ($K1: begun marker, no batch record)"
expect_contains "$TEST_TMP/out" "1 killed try had a job of the code begun and never finished (its batch's begun marker in pending/ lists it and no run record does"
expect_contains "$TEST_TMP/out" " and 1 interrupted try had a job of the code cut short"
expect_contains "$TEST_TMP/out" "rerunning the experiment to finished batches, most of which must hold the value"
# the batch's begun marker lists the job, its problem and dims
# (store_pending_batch_begun)
expect_eq "$(jget "$S/pending/$K1.json" "' '.join('%s %s %s %s' % (j['run_id'], j['variant'], j['problem'], j['dims']) for j in d['begun'])")" \
	"$J1 base attention_fwd [1, 1, 16, 16]" "the batch marker's begun jobs"

expect_not_contains "$TEST_TMP/out" "$K0"
# in a clone: pending/ holds the batches' begun markers alone (the run
# markers are git-ignored scratch), and they say the same
cp -r $S "$TEST_TMP/clone"
find "$TEST_TMP/clone/pending" -type f ! -name '*-batch.json' -delete
[ -e "$TEST_TMP/clone/pending/$K1.json" ] && [ ! -e "$TEST_TMP/clone/pending/$J1.json" ] || fail "clone's pending/: $(ls -a "$TEST_TMP/clone/pending")"
expect_exit 1 "$EVIDENT" audit --store "$TEST_TMP/clone" --no-untraced claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: contradicted: value k/base median_us=${A_med}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 3 batches of the same code on "

# the honest way on: two more finished batches of the code hold it
expect_exit 0 "$EVIDENT" run --no-progress experiments/k.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/k.yaml
"$EVIDENT" audit --no-untraced claims.md >"$TEST_TMP/out" 2>&1
if ! grep -qF "claims.md:1: supported: value k/base median_us=${A_med}us: " "$TEST_TMP/out"; then
	grep -qF "3 of 5 batches" "$TEST_TMP/out" || skip "a finished batch read outside 5% of $A_med us (load $(cut -d' ' -f1 /proc/loadavg)): $(grep -o 'only .*' "$TEST_TMP/out" | head -c 300)"
	fail "3 of 5 and not supported: $(cat "$TEST_TMP/out")"
fi
expect_contains "$TEST_TMP/out" "3 of 5 batches of the same code on "
expect_contains "$TEST_TMP/out" "1 killed try had a job of the code begun and never finished"
expect_exit 0 "$EVIDENT" verify
exit 0
