# The sanitized pass's short way through evident reproduce: the lines of
# src/ that only t0070 and t0072 reach (both long, both alone: their
# checks are timed verdicts; tests/cli/san-skip.txt lists them; the plain
# pass runs them in full), in one short batch at a time, with their checks
# of each step but the verdicts (no step here is timed against another):
#   a batch of a dirty tree (an edited kernel, an untracked kernel and
#   spec, a variant's parameter over the spec's params:) reproduced with
#   --keep (t0070 b); show and ls of the batch and of its reproduction
#   (t0072 c, d); a reproduction whose baseline is wrong, read by the
#   claims pinned to it, and not by one that is not (t0072 a); the
#   ambiguous id, no repository, a missing commit (t0070 c); a recorded
#   tree without the price table (t0070 e).
. "$REPO/tests/cli/lib.sh"
sanitized_pass_only "the plain pass runs t0070 and t0072 themselves"
builds_from_nothing "its subject is provenance: reproduce's paths"
# of tests/fixtures only the header its kernels include (lib.sh mkrepo)
mkrepo git host/fixture_common.h
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR" kernels/test
G() { git -c user.email=t@t -c user.name=t "$@"; }
cat >kernels/test/nap.c <<'C'
/* nap.c - correct attention, then a nap of NAP_US microseconds per launch;
 * when EVIDENT_T0100_REPRO is set, a FRAGILE variant writes a wrong answer
 * (the box passes the runner's EVIDENT_* variables on) */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "../../tests/fixtures/host/fixture_common.h"

static int launch_nap(struct ev_launch *l)
{
	struct timespec ts = { 0, NAP_US * 1000L };
	attn_ok(l, NULL);
	if (getenv("EVIDENT_T0100_REPRO") && FRAGILE)
		((float *)l->outputs[0].data)[0] += 1.0f;
	nanosleep(&ts, NULL);
	return 0;
}

EVIDENT_DEFINE_KERNEL("nap", "host", "attention_fwd", NULL, launch_nap, NULL, EV_PARAM(NAP_US) " " EV_PARAM(FRAGILE))
C
cat >experiments/r.yaml <<'Y'
name: r
problem: attention_fwd
backend: host
kernel: kernels/test/nap.c
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: base
params: {FRAGILE: 0}
variants:
  base: {NAP_US: 200, FRAGILE: 1}
  long: {NAP_US: 400}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 5, cache: hot}
repeats: 1
Y
G add -A && G commit -qm spec || fail "commit"
newest_batch() { ls artifacts/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }

# a dirty tree's batch, reproduced from its patch, the tree kept (t0070 b)
printf '/* an uncommitted edit */\n' >>kernels/test/nap.c
cp kernels/test/nap.c kernels/test/nap_copy.c
sed 's/^name: r$/name: d/; s|^  long:.*|  copy: {kernel: kernels/test/nap_copy.c, NAP_US: 300}|' experiments/r.yaml >experiments/d.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/d.yaml
D=$(newest_batch)
expect_eq "$(jget artifacts/runs/$D.json "d['code']['git']['dirty']")" True
git checkout -q kernels/test/nap.c && rm kernels/test/nap_copy.c experiments/d.yaml
"$EVIDENT" reproduce --no-progress --keep --threshold 0.5 "$D" >"$TEST_TMP/out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TEST_TMP/out"; fail "reproduce --keep exited $rc"; }
expect_contains "$TEST_TMP/out" "reproducing batch $D: commit $(git rev-parse --short=12 HEAD) + its recorded patch"
kept=$(sed -n 's/^the rebuilt tree is kept in //p' "$TEST_TMP/out")
[ -n "$kept" ] && [ -f "$kept/kernels/test/nap_copy.c" ] || fail "--keep: no tree with the untracked kernel at '$kept'"
rm -rf "${TMPDIR:?}"/*
E=$(newest_batch)
expect_eq "$(jget artifacts/runs/$E.json "d['reproduction']['of']")" "$D"
expect_exit 0 "$EVIDENT" show "$E"
expect_match "$TEST_TMP/out" "^reproduces $D: (NOT )?reproduced \\(the verdicts are below\\)$"
expect_exit 0 "$EVIDENT" show "$D"
expect_match "$TEST_TMP/out" "reproduced by $E: (NOT )?reproduced \\(evident show $E\\)"
expect_exit 0 "$EVIDENT" ls --batches
expect_match "$TEST_TMP/out" "^$D .* reproduced by $E \\((NOT )?reproduced\\)$"
expect_match "$TEST_TMP/out" "^$E .* reproduction of $D: (NOT )?reproduced$"

# a reproduction whose baseline is wrong, and a value claim pinned to it (t0072 a)
expect_exit 0 "$EVIDENT" run --no-progress experiments/r.yaml
A=$(newest_batch)
expect_exit 1 env EVIDENT_T0100_REPRO=1 "$EVIDENT" reproduce --no-progress --threshold 0.5 "$A"
B=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$B.json" "[v['outcome'] for v in d['variants']]")" "['wrong_output', 'ok']"
cat >pinned.md <<MD
The baseline passes every check. <!-- claim: validated experiment=r variant=base run=$B -->

long is slower than base. <!-- claim: slower experiment=r a=long b=base run=$B -->

The baseline takes 1 us. <!-- claim: value experiment=r variant=base stat=median_us value=1us run=$B -->
MD
expect_exit 1 "$EVIDENT" audit pinned.md
# (8: validated reads every run of the kernel file, reproductions and
# other parameters included, since red team 44 (it read 3 before), and
# 8 since d218e3a8 (auditid, red team 87), whose audit names 2 of them
# the same code under another name or experiment)
expect_contains "$TEST_TMP/out" "pinned.md:1: contradicted: validated r/base: 1 of 8 run(s) of the current source failed a check: run "
expect_contains "$TEST_TMP/out" "pinned.md:3: contradicted: slower long vs base: base did not run cleanly: wrong_output"
expect_contains "$TEST_TMP/out" "pinned.md:5: contradicted: value r/base"
# unpinned, the claim reads every run of base's kernel file, its
# reproduction's too (red team 44: a reproduction that failed left
# `validated` supported while reproductions were left out): the
# reproduction's wrong_output contradicts it, and says where it ran
echo "The baseline passes every check. <!-- claim: validated experiment=r variant=base -->" >claims.md
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: contradicted: validated r/base: 1 of 8 run(s) of the current source failed a check: run "
expect_contains "$TEST_TMP/out" " (in reproduction $B): wrong_output"
# a reproduced claim on a batch with no band of its own (the reproduction
# B) and none stated takes the default band, and finds no reproduction of
# B (t0070's batch E: the sanitized pass runs this line here)
echo "B reproduces. <!-- claim: reproduced run=$B -->" >repro.md
expect_exit 1 "$EVIDENT" audit repro.md
expect_contains "$TEST_TMP/out" "repro.md:1: unsupported: reproduced $B: batch $B has no reproduction in the store"

# the refusals (t0070 c): an ambiguous id, no repository, a missing commit
expect_exit 2 "$EVIDENT" reproduce 2
expect_contains "$TEST_TMP/err" "is ambiguous"
(cd "$TEST_TMP" && "$EVIDENT" reproduce --store "$EVIDENT_STORE" "$A" >out 2>err; echo $? >rc)
expect_eq "$(cat "$TEST_TMP/rc")" 8
expect_contains "$TEST_TMP/err" "not inside a git repository"
A_commit=$(jget artifacts/runs/$A.json "d['code']['git']['commit']")
mv .git "$TEST_TMP/git.saved"
git init -q . && G add -A && G commit -qm "a new history" || fail "re-create the repository"
expect_exit 8 "$EVIDENT" reproduce --no-progress "$A"
expect_contains "$TEST_TMP/err" "error: commit $A_commit of batch '$A' is not in the repository at '$PWD': fetch it"
rm -rf .git && mv "$TEST_TMP/git.saved" .git

# a recorded tree without the price table (t0070 e)
G rm -r -q --cached data && G commit -qm "data untracked" || fail "untrack data"
expect_exit 0 "$EVIDENT" run --no-progress --only long experiments/r.yaml
P=$(newest_batch)
"$EVIDENT" reproduce --no-progress --threshold 0.5 "$P" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TEST_TMP/out" "$TEST_TMP/err"; fail "reproduce exited $rc"; }
expect_contains "$TEST_TMP/err" "warning: the recorded tree has no 'data/gpu-prices.yaml': the reproduction's cost is unknown"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
exit 0
