# t0277 - red team 200 (tests/fixtures/adversary/host/redteam200/README.md):
# the build box showed /usr whole, /usr/local with it, and what a kernel
# found there was in no key: a header in /usr/local/include (gcc's first
# default directory), an archive in /usr/local/lib (ld's) or whether a
# file existed (__has_include) chose 8 passes or 1 under one build key,
# 2 of 2 pairs of builds each, and a cache hit served the stale object.
# Now the build box shows nothing of /usr/local but the compiler's own
# tree there (sandbox.c push_no_local): a kernel that includes a header
# put in /usr/local/include fails to build, and a probe reads "absent".
. "$REPO/tests/cli/lib.sh"
builds_from_nothing
inc=/usr/local/include
[ -d "$inc" ] && [ -w "$inc" ] || skip "$inc is not a directory this user may write (the test puts a header there for a moment)"
mkrepo
h=evident-t0277-$$.h
trap 'rm -f "$inc/$h"' EXIT
echo '#define T0277_PASSES 1' > "$inc/$h" || fail "cannot write $inc/$h"
# rowsum, honest, its passes from the header (include) or by a probe
mk() {
	cat > "kernels/t0277_$1.c" <<K
#include "evident_kernel.h"
$2
static int t0277_init(struct ev_launch *l, char *err, size_t errlen)
{
	(void)l; (void)err; (void)errlen;
	return 0;
}
static int t0277_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	const float *X = l->inputs[0].data;
	float *Y = l->outputs[0].data;
	for (int p = 0; p < T0277_PASSES; p++)
		for (long long r = 0; r < R; r++) {
			float acc = 0;
			for (long long c = 0; c < C; c++)
				acc += X[r * C + c];
			Y[r] = acc;
		}
	return 0;
}
EVIDENT_DEFINE_KERNEL("t0277_$1", "host", "rowsum", t0277_init, t0277_launch, NULL, "")
K
}
mk inc "#include <$h>"
mk probe "#if __has_include(\"$inc/$h\")
#define T0277_PASSES 1
#else
#define T0277_PASSES 2
#endif"
cat > experiments/t0277.yaml <<Y
name: t0277
problem: rowsum
backend: host
shape: {R: 64, C: 256}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 3}
baseline: probe
variants:
  inc: {kernel: kernels/t0277_inc.c, expect: build_failed}
  probe: {kernel: kernels/t0277_probe.c, expect: ok}
Y
"$EVIDENT" run --no-progress --repeats 1 experiments/t0277.yaml > out 2>&1 || fail "outcomes not as expected: $(tail -5 out)"
expect_match out '^inc +build_failed'
# the probe built the code of "absent": its build log says nothing of the header
R=$(grep -l '"variant": "probe"' artifacts/runs/*.json | grep -v -- -batch.json | head -1)
[ -n "$R" ] || fail "no run of probe"
"$EVIDENT" show --log "$(basename "$R" .json)" > log 2>&1 || fail "show --log"
expect_not_contains "$TEST_TMP/repo/log" "$h"
exit 0
