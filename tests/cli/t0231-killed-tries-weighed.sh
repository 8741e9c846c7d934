# t0231: a try killed before its batch record (SIGKILL: red team 130, hole
# 3) is weighed against a value claim and against `reproduced`.  nap.c
# naps NAP_US per launch, ten times as long where EVIDENT_T0231_SLOW is set
# (the box passes EVIDENT_* on).  Batch A (3 repeats, fast) backs a value
# claim and a reproduced one.  Then:
#  (a) an `evident run` with EVIDENT_T0231_SLOW, killed (SIGKILL) once one
#      of its runs is recorded: runs, no batch record; the value claim on
#      A is unsupported after one (1 of 2), contradicted after two (1 of
#      3) (before: supported, A alone);
#  (b) an `evident reproduce A` killed the same way: its begun marker names
#      A (reproduces), and `reproduced run=A` is contradicted, "begun and
#      never recorded" (before: unsupported, no reproduction); a finished
#      reproduction after it does not make it supported (before: "1
#      reproduction(s) reproduced all").
. "$REPO/tests/cli/lib.sh"
runs_alone_light "kills at a recorded run; the killed runs nap 10x as long"
mkrepo git host/fixture_common.h
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"
G() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p kernels/test
cat > kernels/test/nap.c <<'C'
/* nap.c - correct attention, then a nap of NAP_US microseconds per launch,
 * ten times as long where EVIDENT_T0231_SLOW is set */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "../../tests/fixtures/host/fixture_common.h"

static int launch_nap(struct ev_launch *l)
{
	long us = NAP_US * (getenv("EVIDENT_T0231_SLOW") ? 10 : 1);
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
  base: {NAP_US: 1000}
correctness: {seeds: 1}
timing: {warmup_ms: 2, samples: 20, cache: hot}
Y
G add -A && G commit -qm spec || fail "commit"
newest_batch() { ls artifacts/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }
# kill_at_first_run CMD...: start CMD in the background, SIGKILL it once
# a run record of a batch begun after this call is in the store; prints
# that batch's id
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
A_med=$(jget "artifacts/runs/$A.json" "'%.0f' % d['variants'][0]['stats']['median']")
cat > claims.md <<MD
The kernel takes $A_med us. <!-- claim: value experiment=k variant=base stat=median_us value=${A_med}us run=$A -->
MD
expect_exit 0 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" 'audit: 1 claim: 1 supported'

# --- (a) a killed slow try counts against the value -------------------------
# one such try against A: 1 of 2, no majority
K1=$(EVIDENT_T0231_SLOW=1 kill_at_first_run "$EVIDENT" run --no-progress experiments/k.yaml) || exit 1
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: unsupported: value k/base median_us=${A_med}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 2 batches of the same code on "
expect_contains "$TEST_TMP/out" "($K1: runs, no batch record): no majority of the batches"
# two: 1 of 3
K2=$(EVIDENT_T0231_SLOW=1 kill_at_first_run "$EVIDENT" run --no-progress experiments/k.yaml) || exit 1
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: contradicted: value k/base median_us=${A_med}us: "
expect_contains "$TEST_TMP/out" "but only 1 of 3 batches of the same code on "
# (the job after the last recorded run had begun at the kill, or not:
# a job begun and never finished counts against too, red team 132)
expect_match "$TEST_TMP/out" "2 of them killed tries \\(runs( or a begun job)?, no batch record\\) with a run outside its band or not ok(, or a job of the code begun and never finished)?\\): killed, "
expect_contains "$TEST_TMP/out" "($K2: runs, no batch record)"

# --- (b) a killed reproduction did not reproduce ----------------------------
cat > repro.md <<MD
A was reproduced. <!-- claim: reproduced run=$A threshold=50% -->
MD
expect_exit 1 "$EVIDENT" audit repro.md
expect_contains "$TEST_TMP/out" "repro.md:1: unsupported: reproduced $A: batch $A has no reproduction in the store"
R=$(kill_at_first_run "$EVIDENT" reproduce --no-progress --threshold 0.5 "$A") || exit 1
expect_eq "$(jget "artifacts/pending/$R.json" "d['reproduces']")" "$A" "the killed reproduction's marker names A"
expect_exit 1 "$EVIDENT" audit repro.md
expect_contains "$TEST_TMP/out" "repro.md:1: contradicted: reproduced $A: 1 of 1 reproduction(s) did not reproduce: 1 begun and never recorded (killed before their batch record, or still running; the newest $R)"
expect_not_contains "$TEST_TMP/out" "(null)"
"$EVIDENT" reproduce --no-progress --threshold 0.5 "$A" >"$TEST_TMP/out" 2>&1
[ $? -le 1 ] || { cat "$TEST_TMP/out"; fail "the finished reproduction failed"; }
B=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$B.json" "d['reproduction']['of']")" "$A"
[ ! -e "artifacts/pending/$B.json" ] || fail "a finished reproduction left its marker"
expect_exit 1 "$EVIDENT" audit repro.md
expect_contains "$TEST_TMP/out" "repro.md:1: contradicted: reproduced $A: "
expect_contains "$TEST_TMP/out" " of 2 reproduction(s) did not reproduce: 1 begun and never recorded"
expect_exit 0 "$EVIDENT" verify
exit 0
