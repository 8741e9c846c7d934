# t0072: a batch of `evident reproduce` is labelled, and is never the
# experiment's evidence unless it is asked for.  Batch A: base (a 1 ms nap)
# and long (10 ms), 3 repeats; its claims hold.  A reproduction of A with
# --repeats 2, B, in which base computes a wrong answer and long naps 1 ms
# (a variable from outside the repository): were B read as the latest
# evidence, every claim below would be contradicted (issue 23: after one
# `reproduce --repeats 3`, two supported claims turned contradicted).  Then:
#  (a) the claims (a verdict, a value, a setting) still read A:
#      A's, naming A's runs (but the verdict is contradicted: base's
#      code was refuted in B, red team 227; the value is unsupported: B is
#      one more batch of the same code, where base did not run cleanly,
#      and 1 of 2 batches is no majority: red team 49, fix50; the setting
#      is supported); pinned with run=B they read B:
#      contradicted; `validated` reads every run of its kernel file, B's
#      too (a reproduction ran the code: red team 44), so B's wrong runs
#      contradict it, pinned or not;
#  (b) paper: run=latest is A, and a block pinned to A does not call B
#      "a newer batch";
#  (c) `ls --batches` says A was reproduced by B (not reproduced) and B
#      reproduces A; `ls --batches --json` gives both;
#  (d) `show A` names its reproduction, `show B` and `show` of a run of B
#      say they are a reproduction of A;
#  (e) a later `evident run` is the latest again, and a second reproduction
#      is listed beside the first (whatever its verdict on this busy host).
. "$REPO/tests/cli/lib.sh"
runs_alone "timed verdicts"
builds_from_nothing "its subject is provenance: a reproduction's builds and labels"
# of tests/fixtures only the header its kernels include (lib.sh mkrepo)
mkrepo git host/fixture_common.h
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"
G() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p kernels/test
cat > kernels/test/nap.c <<'C'
/* nap.c - correct attention, then a nap of NAP_US microseconds per launch;
 * when EVIDENT_T0072_REPRO is set, a FRAGILE variant writes a wrong answer
 * and the others nap a tenth as long (the box passes the runner's
 * EVIDENT_* variables on: sandbox.h sandbox_env_keep) */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "../../tests/fixtures/host/fixture_common.h"

static int launch_nap(struct ev_launch *l)
{
	int odd = getenv("EVIDENT_T0072_REPRO") != NULL;
	long us = NAP_US / (odd && !FRAGILE ? 10 : 1);
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	attn_ok(l, NULL);
	if (odd && FRAGILE)
		((float *)l->outputs[0].data)[0] += 1.0f;
	nanosleep(&ts, NULL);
	return 0;
}

EVIDENT_DEFINE_KERNEL("nap", "host", "attention_fwd", NULL, launch_nap, NULL, EV_PARAM(NAP_US) " " EV_PARAM(FRAGILE))
C
cat > experiments/r.yaml <<'Y'
name: r
problem: attention_fwd
backend: host
kernel: kernels/test/nap.c
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: base
repeats: 3
params: {FRAGILE: 0}
variants:
  base: {NAP_US: 1000, FRAGILE: 1}
  long: {NAP_US: 10000}
correctness: {seeds: 2}
timing: {warmup_ms: 2, samples: 20, cache: hot}
Y
G add -A && G commit -qm spec || fail "commit"
newest_batch() { ls artifacts/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }
runs_of() { jget "artifacts/runs/$1.json" "' '.join([r for v in d['variants'] if v['variant'] == '$2' for r in v['runs']])"; }

expect_exit 0 "$EVIDENT" run --no-progress experiments/r.yaml
A=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$A.json" "[v['comparison']['verdict'] for v in d['variants'] if v['variant'] == 'long'][0]")" \
	slower "long is slower than base in A"
A_med=$(jget "artifacts/runs/$A.json" "'%.3f' % [v for v in d['variants'] if v['variant'] == 'base'][0]['stats']['median']")
cat > claims.md <<MD
The baseline passes every check. <!-- claim: validated experiment=r variant=base -->

long is slower than base. <!-- claim: slower experiment=r a=long b=base -->

The baseline takes $A_med us. <!-- claim: value experiment=r variant=base stat=median_us value=${A_med}us -->

Each variant ran 3 times. <!-- claim: setting experiment=r key=repeats value=3 -->
MD
expect_exit 0 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" 'audit: 4 claims: 4 supported, 0 contradicted, 0 stale, 0 unsupported'

expect_exit 1 env EVIDENT_T0072_REPRO=1 "$EVIDENT" reproduce --no-progress --threshold 0.5 --repeats 2 "$A"
expect_contains "$TEST_TMP/out" "NOT reproduced: 0 of 2 variant(s) reproduced, 2 not reproduced"
B=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$B.json" "d['reproduction']['of']")" "$A"
expect_eq "$(jget "artifacts/runs/$B.json" "[v['outcome'] for v in d['variants']]")" "['wrong_output', 'ok']"

# --- (a) claims read A unless asked for B ----------------------------------
expect_exit 1 "$EVIDENT" audit claims.md
o="$TEST_TMP/out"
expect_contains $o 'audit: 4 claims: 1 supported, 2 contradicted, 0 stale, 1 unsupported'
expect_contains $o "claims.md:1: contradicted: validated r/base: 2 of 10 run(s) of the current source failed a check: run "
expect_contains $o " (in reproduction $B): wrong_output"
# (B's base runs only where a rule reads every run of the code: validated,
# and the refuted rule of claim 3)
for run in $(runs_of "$B" base); do expect_not_contains <(grep -v 'claims.md:[13]:' $o) "$run"; done
# the verdict reads A, but base, its faster side, is a code the judge
# refuted in B (red team 227's rule, weighed before the reruns' since
# 2026-12-07: the reruns' "exactly half, no majority" said unsupported)
expect_contains $o "claims.md:3: contradicted: slower long vs base: "
expect_contains $o "runs $(runs_of "$A" long | cut -d' ' -f1)"
expect_contains $o "but base, the side it says is faster, is a code whose output the judge refuted (wrong_output, run "
# the value reads A, and B is one more batch of the same code (red team
# 49: reproductions count across batches), where base did not run
# cleanly: 1 of 2 is no majority
expect_contains $o "claims.md:5: unsupported: value r/base median_us=${A_med}us: "
expect_contains $o "but only 1 of 2 batches of the same code on "
expect_contains $o "base did not run cleanly: wrong_output ($B): no majority of the batches"
sed "s/-->/run=$B -->/" claims.md > pinned.md
expect_exit 1 "$EVIDENT" audit pinned.md
expect_contains $o "pinned.md:1: contradicted: validated r/base: 2 of 10 run(s) of the current source failed a check: run "
expect_contains $o "pinned.md:3: contradicted: slower long vs base: base did not run cleanly: wrong_output"
expect_contains $o "pinned.md:5: contradicted: value r/base"
expect_contains $o "pinned.md:7: contradicted: setting r repeats=3: "
expect_contains $o 'audit: 4 claims: 0 supported, 4 contradicted, 0 stale, 0 unsupported'

# --- (b) paper: latest is A; A is not called out of date by B ---------------
cat > p.md <<MD
<!-- evident:value experiment=r variant=base run=latest stat=median_us digits=3 -->x<!-- /evident:value -->
<!-- evident:provenance experiment=r run=$A -->
<!-- /evident:provenance -->
MD
expect_exit 0 "$EVIDENT" paper p.md
expect_contains p.md "stat=median_us digits=3 -->$A_med us<"
expect_not_contains p.md "A newer batch"

# --- (c) ls --batches says who reproduced whom ------------------------------
expect_exit 0 "$EVIDENT" ls --batches
expect_match "$TEST_TMP/out" "^$A .* reproduced by $B \(NOT reproduced\)$"
expect_match "$TEST_TMP/out" "^$B .* reproduction of $A: NOT reproduced$"
expect_exit 0 "$EVIDENT" ls --batches --json
cp "$TEST_TMP/out" ls.json
expect_eq "$(jget ls.json "[(r['run_id'] == '$A', r['reproduces'], r['reproduced'], r['reproduced_by']) for r in d]")" \
	"[(True, None, None, ['$B']), (False, '$A', False, [])]"

# --- (d) show says it -------------------------------------------------------
expect_exit 0 "$EVIDENT" show "$A"
expect_contains "$TEST_TMP/out" "reproduced by $B: NOT reproduced (evident show $B)"
expect_exit 0 "$EVIDENT" show "$B"
expect_match "$TEST_TMP/out" "^reproduces $A: NOT reproduced \(the verdicts are below\)$"
expect_exit 0 "$EVIDENT" show "$(runs_of "$B" long | cut -d' ' -f1)"
expect_match "$TEST_TMP/out" "^batch      $B, repeat [12] of 2; a reproduction of $A$"

# --- (e) a later run is the latest again; two reproductions ------------------
expect_exit 0 "$EVIDENT" run --no-progress experiments/r.yaml
C=$(newest_batch)
"$EVIDENT" reproduce --no-progress --threshold 0.5 "$A" > "$TEST_TMP/out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TEST_TMP/out"; fail "the second reproduction exited $rc"; }
D=$(newest_batch)
expect_exit 0 "$EVIDENT" ls --batches
expect_match "$TEST_TMP/out" "^$A .* reproduced by $B \(NOT reproduced\), $D \((NOT )?reproduced\)$"
expect_match "$TEST_TMP/out" "^$D .* reproduction of $A: (NOT )?reproduced$"
expect_match "$TEST_TMP/out" "^$C .* [0-9a-f]{10}$"
head -1 claims.md > claims2.md
expect_exit 1 "$EVIDENT" audit claims2.md
expect_contains "$TEST_TMP/out" "claims2.md:1: contradicted: validated r/base: 2 of "
expect_contains "$TEST_TMP/out" " (in reproduction $B): wrong_output"
