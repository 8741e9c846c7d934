# t0219 - a host variant's echo-neutral identity is its own object's
# (red team 125, tests/fixtures/adversary/host/redteam125/README.md):
# the old identity was a second build with kernels/evident_echo_neutral.h
# forced in, which a kernel could tell apart (`#ifdef EVIDENT_KERNEL_H`):
# neutral.c pinned K to 1 there, so K=1 and K=64 (55x apart) shared one
# code.echo_neutral_sha256, eval called their difference the processes'
# and the audit contradicted a true faster claim.  Now the identity is the
# hash of the variant's own compile's relocatable object (since red team
# 130, its -S text before), relinked to the very
# object and its EV_PARAM echo masked (build.c echo_twin, echo_mask.c):
# K=1 and K=64 differ, and an honest kernel whose parameter reaches only
# its echo has one identity at values of any length (1, 10, and one long
# enough that gcc moves the string to .rodata.str1.8).
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject is what the build records"
mkrepo
cat > kernels/echo_salt.c <<'C'
/* echo_salt.c - rowsum; SALT reaches only the echo */
#include "evident_kernel.h"

static int salt_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	const float *X = l->inputs[0].data;
	float *Y = l->outputs[0].data;
	for (long long r = 0; r < R; r++) {
		float acc = 0;
		for (long long c = 0; c < C; c++)
			acc += X[r * C + c];
		Y[r] = acc;
	}
	return 0;
}

EVIDENT_DEFINE_KERNEL("rowsum_salt_cpu", "host", "rowsum", NULL, salt_launch, NULL, EV_PARAM(SALT))
C
cat > experiments/n.yaml <<'Y'
name: n
problem: rowsum
backend: host
shape: {R: 16, C: 256}
baseline: k64
variants:
  k64: {kernel: tests/fixtures/adversary/host/redteam125/neutral.c, K: 64}
  k1: {kernel: tests/fixtures/adversary/host/redteam125/neutral.c, K: 1}
  s1: {kernel: kernels/echo_salt.c, SALT: 1}
  s10: {kernel: kernels/echo_salt.c, SALT: 10}
  slong: {kernel: kernels/echo_salt.c, SALT: 12345678901234567890123456789}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 3, cache: hot}
limits: {timeout_s: 60}
repeats: 1
Y
"$EVIDENT" run --no-progress experiments/n.yaml > run.out 2>&1 || { cat run.out; fail "the run exited $?"; }
python3 - "$EVIDENT_STORE" > ids.txt <<'P' || fail "reading the records"
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/runs/*.json"):
    r = json.load(open(f))
    if r.get("kind") == "batch":
        continue
    c = r["code"]
    print(r["variant"], c.get("echo_neutral_sha256"), c.get("binary_sha256"), r["outcome"])
P
cat ids.txt
id() { awk -v v="$1" '$1 == v { print $2 }' ids.txt; }
for v in k64 k1 s1 s10 slong; do
	case "$(id $v)" in [0-9a-f]*) ;; *) fail "$v has no echo-neutral identity" ;; esac
done
[ "$(id k1)" != "$(id k64)" ] || fail "K=1 and K=64 of neutral.c share one echo-neutral identity: K reaches its code"
expect_eq "$(id s10)" "$(id s1)" "SALT=10 and SALT=1 (the echo alone)"
expect_eq "$(id slong)" "$(id s1)" "a SALT of 29 digits and SALT=1 (the echo alone, in .rodata.str1.8)"
[ "$(awk '$1 == "s1" { print $3 }' ids.txt)" != "$(awk '$1 == "s10" { print $3 }' ids.txt)" ] ||
	fail "s1 and s10 are one binary: the echo is not in the object"
exit 0
