# t0299 - red team 231 (tests/fixtures/adversary/host/redteam231/
# README.md, rows 2 and 3): failures were matched to a claim by the
# problem plug-in's binary hash, so one unused constant appended to the
# problem file (another hash, the same judge) erased them: a kernel wrong
# at R=64 read `validated` on its R=32 runs after the edit (3 of 3), and
# red team 227's nice-19 wrong run no longer held eval or the audit.  Now
# a failure under another build of the problem counts against the code
# (code_identity.c code_other_build_counts) unless that build failed
# every other code it judged there (a reference the edit broke) or its
# rule was tighter.  Both directions here: the no-op rebuild keeps the
# failure; a broken reference, which fails an honest kernel beside
# another, refutes neither.
. "$REPO/tests/cli/lib.sh"
mkrepo
D=tests/fixtures/specs
spec() { # spec NAME R KERNEL...: one rowsum experiment at R rows
	local name=$1 r=$2
	shift 2
	printf 'name: %s\nproblem: rowsum\nbackend: host\nshape: {R: %s, C: 1024}\nbaseline: k0\nvariants:\n' "$name" "$r"
	local i=0
	for k in "$@"; do
		printf '  k%s: {kernel: %s}\n' $i "$k"
		i=$((i + 1))
	done
	printf 'correctness: {seeds: 1, seed: 1}\ntiming: {warmup_ms: 0, samples: 10}\nlimits: {timeout_s: 60}\nrepeats: 1\n'
}
W=tests/fixtures/adversary/host/redteam231/r64wrong.c
N=kernels/rowsum/naive.c
validated() { # validated EXPERIMENT FILE: audit a validated claim on k0
	printf '# t\n\nIt passes. <!-- claim: validated experiment=%s variant=k0 -->\n' "$1" > "$2.md"
	"$EVIDENT" audit --no-untraced "$2.md" > "$2.out" 2>&1
}
# 1: r64wrong fails at R=64; the problem file gains an unused constant;
# its R=32 runs pass: validated is not supported
spec fail64 64 $W > experiments/fail64.yaml
"$EVIDENT" run --no-progress experiments/fail64.yaml > f.out 2>&1
expect_match f.out "^k0 +wrong_output"
printf '\n__attribute__((used)) static const char t0299_rev[] = "rev 2";\n' >> problems/rowsum.c
spec ok32 32 $W > experiments/ok32.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v1
expect_match v1.out "v1.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
# 2: a broken reference (twice the row sums) fails naive.c and r64wrong
# alike at R=48; restored, naive.c at R=32 is validated and r64wrong's
# R=32 claim is not held by the broken build's failure
cp problems/rowsum.c rowsum.good
sed -i 's/out\[0\]\[r\] = acc;/out[0][r] = 2 * acc;/' problems/rowsum.c
grep -q "2 \* acc" problems/rowsum.c || fail "the reference edit did not apply"
spec broken 48 $N $W > experiments/broken.yaml
"$EVIDENT" run --no-progress experiments/broken.yaml > b.out 2>&1
expect_match b.out "^k0 +wrong_output"
expect_match b.out "^k1 +wrong_output"
cp rowsum.good problems/rowsum.c
spec naive32 32 $N > experiments/naive32.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive32.yaml
validated naive32 v2
expect_match v2.out "v2.md:3: supported: validated naive32/k0"
# 3: red team 232's looser: the rule loosened by one part in 1e5 (the
# same judge's fingerprint: the tolerance is not in it) does not drop
# r64wrong's failure 700x over it, re-judged by the looser rule
sed -i 's/double v = 1e-5 \*/double v = 1.00001e-5 */' problems/rowsum.c
grep -q "1.00001e-5" problems/rowsum.c || fail "the rule edit did not apply"
spec naive64 64 $N > experiments/naive64.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive64.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/ok32.yaml
validated ok32 v3
expect_match v3.out "v3.md:3: contradicted: validated ok32/k0: .*judged by another build of the problem"
# 4: red team 234's flopswap: a build that counts other work at a shape
# holds a rate claim on it (R x C made 2 R x C)
cp rowsum.good problems/rowsum.c
sed -i 's/return (double)s\[KR\] \* (double)s\[KC\];/return 2.0 * (double)s[KR] * (double)s[KC];/' problems/rowsum.c
grep -q "return 2.0 \* (double)s\[KR\]" problems/rowsum.c || fail "the FLOP edit did not apply"
expect_exit 0 "$EVIDENT" run --no-progress experiments/naive32.yaml
B=$(ls -t artifacts/runs/*-batch.json | head -1)
G=$(jget "$B" '"%.3g" % [v for v in d["variants"] if v["variant"] == "k0"][0]["throughput"]["gflops"]')
printf '# g\n\nIt runs at %s GFLOP/s. <!-- claim: value experiment=naive32 variant=k0 stat=gflops value=%s tol=5%% run=%s -->\n' "$G" "$G" "$(basename "$B" .json)" > g.md
"$EVIDENT" audit --no-untraced g.md > g.out 2>&1
expect_match g.out "g.md:3: unsupported: value naive32/k0 gflops=$G: the problem's FLOP count at this shape is"
exit 0
