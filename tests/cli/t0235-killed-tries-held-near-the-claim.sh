# t0235: red team 130's killhunt, rerun on the fix for killed tries: a try
# killed before its batch record is held to the band of the claim cut
# even about the stated value (audit_value.c value_try_band), not to the
# evidence's whole CI.  twomode.c naps NAP_US and 3 NAP_US by turns, launch
# by launch, so batch A's median swings between the two modes under the
# two-level bootstrap and its CI is wide (about [NAP_US, 3 NAP_US]: red
# team 130's lucky evidence, one fast process and two slow, 3577 [2536,
# 4799] us).  The value claim states a number at the CI's low end (the
# hunt's 2600 us).  Two tries, each napping 2 NAP_US every launch (the slow
# runs the hunter kills: inside A's CI, far from the stated value), are
# killed (SIGKILL) once a run is recorded.  Before: both left out ("every
# run inside [lo, hi]"), the claim supported on A alone; now both count
# against it, 1 of 3, contradicted.
. "$REPO/tests/cli/lib.sh"
runs_alone_light "kills at a recorded run; its kernels nap"
mkrepo git host/fixture_common.h
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"
G() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p kernels/test
cat > kernels/test/twomode.c <<'C'
/* twomode.c - correct attention, then a nap of NAP_US and 3 NAP_US
 * microseconds by turns, launch by launch; EVIDENT_T0235_NAP_US, where
 * set, naps that long every launch instead */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include "../../tests/fixtures/host/fixture_common.h"

static int launch_twomode(struct ev_launch *l)
{
	static unsigned long k;
	const char *e = getenv("EVIDENT_T0235_NAP_US");
	long us = e ? atol(e) : k++ % 2 ? 3 * NAP_US : NAP_US;
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	attn_ok(l, NULL);
	nanosleep(&ts, NULL);
	return 0;
}

EVIDENT_DEFINE_KERNEL("twomode", "host", "attention_fwd", NULL, launch_twomode, NULL, EV_PARAM(NAP_US))
C
cat > experiments/k.yaml <<'Y'
name: k
problem: attention_fwd
backend: host
kernel: kernels/test/twomode.c
shape: {B: 1, H: 1, S: 16, D: 16}
repeats: 3
variants:
  base: {NAP_US: 5000}
correctness: {seeds: 1}
timing: {warmup_ms: 2, samples: 20, cache: hot}
Y
G add -A && G commit -qm spec || fail "commit"
newest_batch() { ls artifacts/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }
# kill_at_first_run CMD...: as t0231's: start CMD in the background,
# SIGKILL it once a run record of a batch begun after this call is in the
# store; prints that batch's id
kill_at_first_run() {
	local before n=0 bid="" pid
	before=$(ls artifacts/pending 2>/dev/null | sort)
	"$@" >"$TEST_TMP/killed.out" 2>&1 &
	pid=$!
	while [ $n -lt 600 ]; do
		for m in artifacts/pending/*-batch.json; do
			[ -e "$m" ] || continue
			echo "$before" | grep -qxF "$(basename "$m")" && continue
			bid=$(basename "$m" .json)
		done
		if [ -n "$bid" ] && grep -lqF "\"batch_id\": \"$bid\"" $(ls artifacts/runs/*.json | grep -v -- '-batch.json$') 2>/dev/null; then
			break
		fi
		sleep 0.05
		n=$((n + 1))
	done
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ -n "$bid" ] || { cat "$TEST_TMP/killed.out" >&2; fail "no batch begun: $*"; }
	[ ! -e "artifacts/runs/$bid.json" ] || fail "the batch $bid was recorded before the kill"
	echo "$bid"
}

expect_exit 0 "$EVIDENT" run --no-progress experiments/k.yaml
A=$(newest_batch)
read -r A_med A_lo A_hi <<<"$(jget "artifacts/runs/$A.json" "'%.1f %.1f %.1f' % ((lambda s: (s['median'], s['median_ci'][0], s['median_ci'][1]))(d['variants'][0]['stats']))")"
# the claim: a whole number of us just above the CI's low end
WANT=$(python3 -S -c "import math; print(math.floor($A_lo) + 2)")
python3 -S -c "import sys; sys.exit(0 if $A_hi - $A_lo > 5000 and $WANT < $A_hi else 1)" ||
	fail "A's CI is not wide ($A_med [$A_lo, $A_hi]): twomode's turns did not reach its samples"
cat > claims.md <<MD
The kernel takes $WANT us. <!-- claim: value experiment=k variant=base stat=median_us value=${WANT}us run=$A -->
MD
expect_exit 0 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" 'audit: 1 claim: 1 supported'

# two tries whose runs nap 2 NAP_US, killed at their first recorded run
K1=$(EVIDENT_T0235_NAP_US=10000 kill_at_first_run "$EVIDENT" run --no-progress experiments/k.yaml) || exit 1
K2=$(EVIDENT_T0235_NAP_US=10000 kill_at_first_run "$EVIDENT" run --no-progress experiments/k.yaml) || exit 1
# the hunt's shape: every killed run inside A's CI, farther from the claim
# than A's low end is
for r in $(grep -lF -e "\"batch_id\": \"$K1\"" -e "\"batch_id\": \"$K2\"" artifacts/runs/*.json); do
	m=$(jget "$r" "d['timing']['stats']['median']")
	python3 -S -c "import sys; sys.exit(0 if $A_lo < $m < $A_hi and $m - $WANT > 1000 else 1)" ||
		skip "killed run $r at $m us is not inside A's CI [$A_lo, $A_hi] far from $WANT (load $(cut -d' ' -f1 /proc/loadavg)): not the hunt's shape"
done
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: contradicted: value k/base median_us=${WANT}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 3 batches of the same code on "
# (the job after the last recorded run had begun at the kill, or not:
# a job begun and never finished counts against too, red team 132)
expect_match "$TEST_TMP/out" "2 of them killed tries \\(runs( or a begun job)?, no batch record\\) with a run outside its band or not ok(, or a job of the code begun and never finished)?\\): killed, "
expect_contains "$TEST_TMP/out" "($K1: runs, no batch record)"
expect_contains "$TEST_TMP/out" "($K2: runs, no batch record)"
expect_not_contains "$TEST_TMP/out" "left out"
expect_exit 0 "$EVIDENT" verify
exit 0
