# t0071: the problem is provenance like the kernel.  A new problem, not
# committed (problems/axpy.c from docs/writing-a-problem.md, with its
# reference in a header of its own, problems/axpy_ref.h), in a committed
# repository:
#  (a) every run record names the problem's sources, the plug-in first and
#      every header it includes from the repository, each with its sha256
#      and its bytes as a store object; `show` prints them;
#  (b) the untracked problem files are in the recorded patch;
#  (c) a `validated` claim goes stale when the problem's header (its
#      reference) or its .c changes, naming the file, and is supported again
#      once it is restored;
#  (d) `evident reproduce` rebuilds the batch from the commit and the patch
#      with the problem files gone from the work tree: the reproduction ran
#      the recorded problem sources;
#  (e) a problem file that git ignores is in no patch: reproduce says that
#      the recorded commit and patch lack it, naming the file and its
#      recorded hash, and exits 8 without running anything.
. "$REPO/tests/cli/lib.sh"
runs_alone "a timed reproduction"
builds_from_nothing "its subject is provenance: the problem plug-in's build and its record"
mkrepo git none # of tests/fixtures only what it reads (lib.sh mkrepo)
export TMPDIR="$TEST_TMP/tmp"
mkdir -p "$TMPDIR"
G() { git -c user.email=t@t -c user.name=t "$@"; }
# the guide's problem, its reference moved into a header of its own
awk '
	/^```[a-z]* file=problems\/axpy.c/ { inblk = 1; next }
	inblk && /^```$/ { inblk = 0; next }
	inblk { print }
' "$REPO/docs/writing-a-problem.md" > problems/axpy.c || fail "extracting the guide's problem"
grep -q 'out\[0\]\[i\] = alpha \* (double)in\[0\]\[i\] + (double)in\[1\]\[i\];' problems/axpy.c || fail "the guide's reference line moved"
sed -i 's|out\[0\]\[i\] = alpha \* (double)in\[0\]\[i\] + (double)in\[1\]\[i\];|out[0][i] = AXPY_REF(alpha, in[0][i], in[1][i]);|;
	s|#include "evident_problem.h"|#include "evident_problem.h"\n#include "axpy_ref.h"|' problems/axpy.c
cat > problems/axpy_ref.h <<'H'
/* axpy_ref.h - the reference of problems/axpy.c, in a header of its own */
#define AXPY_REF(a, x, z) ((a) * (double)(x) + (double)(z))
H
mkdir -p kernels/axpy
# a nap per launch: a time this shared host cannot blur
cat > kernels/axpy/nap.c <<'C'
/* nap.c - axpy on the CPU, then a nap of 2 ms per launch */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "evident_kernel.h"

static int axpy_launch(struct ev_launch *l)
{
	const long long n = l->inputs[0].dims[0];
	const float a = (float)l->scale, *x = l->inputs[0].data, *z = l->inputs[1].data;
	float *y = l->outputs[0].data;
	struct timespec ts = { 0, 2000000 };
	for (long long i = 0; i < n; i++)
		y[i] = a * x[i] + z[i];
	nanosleep(&ts, NULL);
	return 0;
}

EVIDENT_DEFINE_KERNEL("axpy_nap", "host", "axpy", NULL, axpy_launch, NULL, "")
C
cat > experiments/ax.yaml <<'Y'
name: ax
problem: axpy
backend: host
kernel: kernels/axpy/nap.c
shape: {N: 4096}
correctness: {seeds: 2}
timing: {warmup_ms: 2, samples: 20, cache: hot}
repeats: 1
Y
mkdir -p "$TEST_TMP/saved" && cp problems/axpy.c problems/axpy_ref.h experiments/ax.yaml "$TEST_TMP/saved/" &&
	cp -r kernels/axpy "$TEST_TMP/saved/" || fail "save the problem"
newest_batch() { ls artifacts/runs | grep -- '-batch.json$' | sort | tail -1 | sed 's/\.json$//'; }
first_run() { jget "artifacts/runs/$1.json" "d['variants'][0]['runs'][0]"; }
# "path sha256 object" per problem source of run $1
problem_sources() {
	python3 - "$1" <<'P'
import json, sys
r = json.load(open('artifacts/runs/%s.json' % sys.argv[1]))
for s in r['problem']['sources']:
    print(s['path'], s['sha256'], s['object'])
P
}

# --- (a) the record names the problem's sources ----------------------------
expect_exit 0 "$EVIDENT" run --no-progress experiments/ax.yaml
A=$(newest_batch)
RA=$(first_run "$A")
problem_sources "$RA" > "$TEST_TMP/srcA"
expect_eq "$(cut -d' ' -f1 "$TEST_TMP/srcA" | tr '\n' ' ')" \
	"problems/axpy.c problems/evident_problem.h kernels/evident_kernel.h problems/axpy_ref.h " "the plug-in first, then its headers"
while read -r path sha obj; do
	expect_eq "$sha" "$(sha256sum < "$path" | cut -c1-64)" "$path's recorded hash"
	"$EVIDENT" show --object "$obj" > "$TEST_TMP/obj" || fail "no object for $path"
	cmp -s "$TEST_TMP/obj" "$path" || fail "the object of $path is not its bytes"
done < "$TEST_TMP/srcA"
expect_exit 0 "$EVIDENT" show "$RA"
expect_match "$TEST_TMP/out" "^  problem  problems/axpy_ref.h  sha256 $(sha256sum < problems/axpy_ref.h | cut -c1-16)$"
expect_match "$TEST_TMP/out" "^  problem  problems/axpy.c  sha256 [0-9a-f]{16}$"

# --- (b) the untracked problem files are in the recorded patch --------------
expect_eq "$(jget "artifacts/runs/$RA.json" "sorted(d['code']['git']['untracked'])")" \
	"['experiments/ax.yaml', 'kernels/axpy/nap.c', 'problems/axpy.c', 'problems/axpy_ref.h']"
"$EVIDENT" show --diff "$RA" > "$TEST_TMP/patch" || fail "show --diff"
expect_contains "$TEST_TMP/patch" "+++ b/problems/axpy.c"
expect_contains "$TEST_TMP/patch" "+++ b/problems/axpy_ref.h"

# --- (c) claims go stale when the problem changes ---------------------------
echo 'The axpy kernel passes every check. <!-- claim: validated experiment=ax variant=default -->' > claims.md
expect_exit 0 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: supported: validated ax/default: 1 run(s) of the current source passed"
cp problems/axpy_ref.h "$TEST_TMP/axpy_ref.h"
# the reference is now 2 X + 2 Z: the runs checked against another answer
sed -i 's|((a) \* (double)(x) + (double)(z))|(2 * ((a) * (double)(x) + (double)(z)))|' problems/axpy_ref.h
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: stale: validated ax/default: 'problems/axpy_ref.h' changed since run '$RA'; rerun the experiment"
cp "$TEST_TMP/axpy_ref.h" problems/axpy_ref.h
expect_exit 0 "$EVIDENT" audit claims.md
echo '/* edited after the run */' >> problems/axpy.c
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: stale: validated ax/default: 'problems/axpy.c' changed since run '$RA'"
rm problems/axpy.c
expect_exit 1 "$EVIDENT" audit claims.md
expect_contains "$TEST_TMP/out" "claims.md:1: stale: validated ax/default: 'problems/axpy.c' no longer exists"

# --- (d) reproduce rebuilds the new problem from the recorded patch ---------
rm -r problems/axpy_ref.h kernels/axpy experiments/ax.yaml
[ -z "$(git status --porcelain -- . ':!artifacts' ':!build' ':!claims.md')" ] || fail "untracked files left: $(git status --porcelain)"
# (it runs: whether its naps match the recorded ones on this busy host is not the question)
"$EVIDENT" reproduce --no-progress --threshold 0.5 "$A" > "$TEST_TMP/out" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TEST_TMP/out"; fail "reproduce exited $rc"; }
expect_contains "$TEST_TMP/out" "reproducing batch $A: commit $(git rev-parse --short=12 HEAD) + its recorded patch"
B=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$B.json" "d['reproduction']['of']")" "$A"
expect_eq "$(jget "artifacts/runs/$B.json" "[v['now']['outcome'] for v in d['reproduction']['variants']]")" "['ok']"
expect_eq "$(jget "artifacts/runs/$B.json" "d['reproduction']['warnings']")" "[]"
problem_sources "$(first_run "$B")" > "$TEST_TMP/srcB"
cmp -s "$TEST_TMP/srcA" "$TEST_TMP/srcB" || { diff "$TEST_TMP/srcA" "$TEST_TMP/srcB"; fail "the reproduction ran other problem sources"; }
expect_eq "$(jget "artifacts/runs/$B.json" "d['code']['git']['diff_object']")" \
	"$(jget "artifacts/runs/$A.json" "d['code']['git']['diff_object']")" "the reproduction's patch is the recorded one"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"

# --- (e) an ignored problem file is in no patch: said, with its hash --------
cp "$TEST_TMP/saved/axpy.c" "$TEST_TMP/saved/axpy_ref.h" problems/
cp -r "$TEST_TMP/saved/axpy" kernels/ && cp "$TEST_TMP/saved/ax.yaml" experiments/
echo 'problems/axpy*' > .gitignore
G add .gitignore && G commit -qm "ignore the axpy problem" || fail "commit .gitignore"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ax.yaml
P=$(newest_batch)
expect_eq "$(jget "artifacts/runs/$(first_run "$P").json" "sorted(d['code']['git']['untracked'])")" \
	"['experiments/ax.yaml', 'kernels/axpy/nap.c']"
sha=$(sha256sum < problems/axpy.c | cut -c1-16)
expect_exit 8 "$EVIDENT" reproduce --no-progress "$P"
expect_contains "$TEST_TMP/err" "error: batch '$P' ran 'problems/axpy.c' (sha256 $sha), which neither commit $(git rev-parse --short=12 HEAD) nor its recorded patch holds"
expect_not_contains "$TEST_TMP/err" "predates"
expect_eq "$(newest_batch)" "$P" "no batch was recorded"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
