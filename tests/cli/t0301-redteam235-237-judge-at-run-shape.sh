# t0301 - red teams 235 and 237 (tests/fixtures/adversary/host/
# redteam235/, redteam237/ README.md): the judge's fingerprint at one
# fixed shape decided whether another build's failure counted.  A FLOP
# count edited (5 -> 4: nothing the judge checks) cleared a cheat's
# failure (validated supported 3 of 3); a reference bent at the run's
# shape only (the fixed shape's unchanged) refuted an honest code for
# good (held 6 of 6).  Now each run records the judge at its own shapes
# (problem.judge_run_sha256: fills and reference outputs to 20 bits at
# the run's shape, its small and extra shapes; no work counts) and
# code_identity.c code_other_build_counts compares that.  And a wrong run
# that asked 5 timed checks refuted nothing (red team 237's tc5: promoted
# 9 of 14): fewer timed checks weaken a pass, never a failure.  Red team
# 238: an edit at the extra shape only cleared a failure at the run's:
# the judge is compared by shape (problem.judge_run_roles).  Since
# 2026-12-06 each run keeps its plug-in's object in the store, and a
# failure under another build is judged again by both objects
# (report/rejudge.c): a nudge inside the rule no longer clears it (row 5),
# a bend at a shape the current build never ran (row 6) or one that
# recognises the fingerprints' fixed seeds (row 7) no longer denies, nor
# one bent in its checker's process only (row 10, red team 244).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
spec() { # spec NAME R KERNEL: one rowsum experiment at R rows
	printf 'name: %s\nproblem: rowsum\nbackend: host\nshape: {R: %s, C: 1024}\nbaseline: k0\nvariants:\n  k0: {kernel: %s}\n' "$1" "$2" "$3"
	printf 'correctness: {seeds: 1, seed: 1}\ntiming: {warmup_ms: 0, samples: 10}\nlimits: {timeout_s: 60}\nrepeats: 1\n'
}
validated() { # validated EXPERIMENT FILE: audit a validated claim on k0
	printf '# t\n\nIt passes. <!-- claim: validated experiment=%s variant=k0 -->\n' "$1" > "$2.md"
	"$EVIDENT" audit --no-untraced "$2.md" > "$2.out" 2>&1
}
W=tests/fixtures/adversary/host/redteam231/r64wrong.c
N=kernels/rowsum/naive.c
cp problems/rowsum.c rowsum.good
# 1: r64wrong fails at R=64; the FLOP count is edited (2 R C); its R=32
# runs pass: validated is not supported (the judge at R=64 is unchanged)
spec fail64 64 $W > experiments/fail64.yaml
"$EVIDENT" run --no-progress experiments/fail64.yaml > f.out 2>&1
expect_match f.out "^k0 +wrong_output"
r=$(ls artifacts/runs/*.json | grep -v -- -batch.json | head -1)
j1=$(jget "$r" 'd["problem"]["judge_run_sha256"]')
[ ${#j1} = 64 ] || fail "the run recorded no judge_run_sha256 ('$j1')"
sed -i 's/return (double)s\[KR\] \* (double)s\[KC\];/return 2.0 * (double)s[KR] * (double)s[KC];/' problems/rowsum.c
grep -q "return 2.0 \* (double)s\[KR\]" problems/rowsum.c || fail "the FLOP edit did not apply"
spec naive64 64 $N > experiments/naive64.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive64.yaml
B=$(ls -t artifacts/runs/*-batch.json | head -1)
r=$(ls -t artifacts/runs/*.json | grep -v -- -batch.json | head -1)
expect_eq "$(jget "$r" 'd["problem"]["judge_run_sha256"]')" "$j1" "the judge at R=64 after the FLOP edit"
spec ok32 32 $W > experiments/ok32.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v1
expect_match v1.out "v1.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
# 2: a reference bent at R=48 only fails naive.c there (the fixed
# shape's fingerprint unchanged); restored, naive.c at R=48 passes and
# its validated claim is supported: the bent build judged otherwise there
cp rowsum.good problems/rowsum.c
sed -i 's/out\[0\]\[r\] = acc;/out[0][r] = R == 48 ? 2 * acc : acc;/' problems/rowsum.c
grep -q "R == 48 ? 2 \* acc" problems/rowsum.c || fail "the reference edit did not apply"
spec broken48 48 $N > experiments/broken48.yaml
"$EVIDENT" run --no-progress experiments/broken48.yaml > b.out 2>&1
expect_match b.out "^k0 +wrong_output"
cp rowsum.good problems/rowsum.c
spec naive48 48 $N > experiments/naive48.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive48.yaml
validated naive48 v2
expect_match v2.out "v2.md:3: supported: validated naive48/k0"
# 4: red team 238's extra: an edit at the extra shape only (R=37: one
# entry by 1 + 4e-6, inside the rule) leaves r64wrong's failure at R=64
# counted: the judge is compared at the shapes it failed at (by role)
cp rowsum.good problems/rowsum.c
sed -i 's/out\[0\]\[r\] = acc;/out[0][r] = R == 37 \&\& r == 0 ? acc * (1 + 4e-6) : acc;/' problems/rowsum.c
grep -q "R == 37 && r == 0" problems/rowsum.c || fail "the extra-shape edit did not apply"
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive64.yaml
r=$(ls -t artifacts/runs/*.json | grep -v -- -batch.json | head -1)
[ "$(jget "$r" 'd["problem"]["judge_run_sha256"]')" != "$j1" ] || fail "the extra-shape edit left the combined judge_run_sha256 alone"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v4
expect_match v4.out "v4.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
cp rowsum.good problems/rowsum.c
# 5: a reference nudged by 4e-6 in one entry at every shape (inside the
# rule) moves every fingerprint; r64wrong's failure at R=64 still counts:
# the two builds' objects (kept in the store) judge again on inputs drawn
# for the question, and the gap is far under the failure's excess
# (report/rejudge.c; before it, validated supported 3 of 3 with softmax)
sed -i 's/out\[0\]\[r\] = acc;/out[0][r] = r == 0 ? acc * (1 + 4e-6) : acc;/' problems/rowsum.c
grep -q "r == 0 ? acc \* (1 + 4e-6)" problems/rowsum.c || fail "the nudge did not apply"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v5
expect_match v5.out "v5.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
cp rowsum.good problems/rowsum.c
# 8: the fill's generator mixed another way (the same distributions,
# other draws): r64wrong's failure still counts (the current build's
# reference on the failing build's inputs; its own draw the same
# distribution by size)
sed -i 's/uint64_t st = seed \* 0x2545f4914f6cdd1dULL + 1;/uint64_t st = seed * 0x2545f4914f6cdd1dULL + 3;/' problems/rowsum.c
grep -q "0x2545f4914f6cdd1dULL + 3" problems/rowsum.c || fail "the fill edit did not apply"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v8
expect_match v8.out "v8.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
cp rowsum.good problems/rowsum.c
# 9: the nudge of row 5 with every distribution renamed: the failing
# build's draw is weighed against the closest of the current build's
# distributions (before, the re-judge could not tell and the fingerprints
# cleared the failure)
sed -i -e 's/out\[0\]\[r\] = acc;/out[0][r] = r == 0 ? acc * (1 + 4e-6) : acc;/' \
       -e 's/.dists = { "uniform", "cancel", "positive", "padded", "spikes" },/.dists = { "uniform2", "cancel2", "positive2", "padded2", "spikes2" },/' problems/rowsum.c
grep -q '"uniform2"' problems/rowsum.c || fail "the rename did not apply"
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v9
expect_match v9.out "v9.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
cp rowsum.good problems/rowsum.c
# 6: a reference bent at R=40, a shape the current build never ran:
# naive.c's failure there does not deny it (the fixed shape's
# fingerprint is unchanged, and the reader fell back to it)
sed -i 's/out\[0\]\[r\] = acc;/out[0][r] = R == 40 ? 2 * acc : acc;/' problems/rowsum.c
spec broken40 40 $N > experiments/broken40.yaml
"$EVIDENT" run --no-progress experiments/broken40.yaml > b40.out 2>&1
expect_match b40.out "^k0 +wrong_output"
cp rowsum.good problems/rowsum.c
validated naive48 v6
expect_match v6.out "v6.md:3: supported: validated naive48/k0"
# 7: a reference bent wherever the fill's seed is not a fingerprint's
# fixed one (red team 238's sdeny): every fingerprint as HEAD's, naive.c
# wrong at R=56; it denies nothing (the re-judge draws its own inputs)
sed -i -e 's/^static void rowsum_fill(/static int rt_fp;\nstatic void rowsum_fill(/' \
       -e 's/^\tfloat \*X = in\[0\];$/\tfloat *X = in[0];\n\trt_fp = seed - 0x72756e6a756467ULL < 5 || seed - 0x6a75646765ULL < 5;/' \
       -e 's/out\[0\]\[r\] = acc;/out[0][r] = rt_fp ? acc : 2 * acc;/' problems/rowsum.c
[ "$(grep -c rt_fp problems/rowsum.c)" = 3 ] || fail "the seed bend did not apply"
spec broken56 56 $N > experiments/broken56.yaml
"$EVIDENT" run --no-progress experiments/broken56.yaml > b56.out 2>&1
expect_match b56.out "^k0 +wrong_output"
r=$(ls -t artifacts/runs/*.json | grep -v -- -batch.json | head -1)
expect_eq "$(jget "$r" 'd["problem"]["judge_sha256"]')" "$(jget "$(ls artifacts/runs/*.json | grep -v -- -batch.json | head -1)" 'd["problem"]["judge_sha256"]')" "the seed-bent build's fixed-shape judge"
cp rowsum.good problems/rowsum.c
validated naive48 v7
expect_match v7.out "v7.md:3: supported: validated naive48/k0"
# 10: a reference bent only in the checker's process (red team 244's
# ckdeny: a constructor reads argv for __check): naive.c wrong at R=24;
# the build's box gives the honest reference, which is not the scale its
# checks recorded, so its failures deny nothing
python3 - <<'PY'
p = 'problems/rowsum.c'
t = open(p).read()
a = 'static void rowsum_fill('
t = t.replace(a, """#include <string.h>
static int rt_ck;
__attribute__((constructor)) static void rt_ck_init(int argc, char **argv, char **envp)
{
	(void)envp;
	for (int i = 0; argv && i < argc && argv[i]; i++)
		if (strstr(argv[i], "__check"))
			rt_ck = 1;
}
""" + a, 1)
t = t.replace('out[0][r] = acc;', 'out[0][r] = rt_ck ? 2 * acc : acc;', 1)
open(p, 'w').write(t)
PY
[ "$(grep -c rt_ck problems/rowsum.c)" -ge 3 ] || fail "the checker-only bend did not apply"
spec broken24 24 $N > experiments/broken24.yaml
"$EVIDENT" run --no-progress experiments/broken24.yaml > b24.out 2>&1
expect_match b24.out "^k0 +wrong_output"
cp rowsum.good problems/rowsum.c
validated naive48 v10
expect_match v10.out "v10.md:3: supported: validated naive48/k0"
# 3: red team 237's tc5: a wrong run that asked 5 timed checks holds a
# faster claim of its code (nicewrong.c: wrong at nice 19)
if [ "$(nice)" -lt 19 ]; then
	SP=tests/fixtures/specs
	nice -n 19 "$EVIDENT" run --no-progress $SP/host-redteam237-tc5.yaml > tc5.out 2>&1
	expect_match tc5.out "^nw +wrong_output"
	# (twice: two batches of the code that went faster, a majority)
	"$EVIDENT" run --no-progress $SP/host-redteam237-nw.yaml > nw0.out 2>&1
	"$EVIDENT" run --no-progress $SP/host-redteam237-nw.yaml > nw.out 2>&1
	b=$(sed -n 's/.*and batch \([^ ]*\) in .*/\1/p' nw.out)
	# (both: one batch not faster, under load, leaves the claim
	# unsupported by the majority rule before the refuted rule speaks)
	if grep -qE "^nw +ok .* faster$" nw.out && grep -qE "^nw +ok .* faster$" nw0.out; then
		echo "<!-- claim: faster experiment=rt237-nw a=nw b=inc run=$b -->" > f.md
		"$EVIDENT" audit --no-untraced f.md > f3.out 2>&1
		expect_match f3.out "f.md:1: contradicted: faster nw vs inc: .*a code whose output the judge refuted \(wrong_output"
	else
		echo "note: nw not ok and faster in both batches at nice $(nice) here ($(grep -hE '^nw ' nw0.out nw.out)): row 3's claim not made"
	fi
else
	echo "note: row 3 skipped: the test runs at nice 19, where nicewrong.c is always wrong"
fi
exit 0
