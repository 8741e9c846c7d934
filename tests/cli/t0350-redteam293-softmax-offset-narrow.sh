# t0350 - red team 293 (host/redteam293/README.md, rows 2 and 3): no
# element of softmax's fill had |x| in [13, 76) and no row spread under
# 0.49, so gap76.c (exp(x - m) as exp(x / 16)^16 by a Taylor sum, right
# for |x| <= 13 only, times exp(-m) wherever |x| < 76) was ok 12 of 12
# runs and promoted 3 of 3, and narrow.c (a quadratic exp in rows whose
# spread is under 0.45) ok 9 of 9, both wrong on ordinary logits.  Now
# each `uniform` row has a secret offset (+-(0.6..76), 0 in a row of 4)
# and its temperature reaches 1/64 (problems/softmax.c softmax_fill): both
# are refused in every run (wrong_output, or flaky where one check
# passed), and their honest twins (gap76.c at GAP 13, narrow.c at SPREAD
# 0.039) and the general path stay ok.  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
K=tests/fixtures/adversary/host/redteam293
for f in gap76 narrow; do
	if [ $f = gap76 ]; then P=GAP; cheat=76; twin=13; else P=SPREAD; cheat=0.45; twin=0.039; fi
	cat > $f.yaml <<EOF
name: t0350-$f
question: is red team 293's $f.c refused, and its honest twin not?
problem: softmax
backend: host
kernel: $K/$f.c
shape: {R: 256, C: 1024}
correctness: {seeds: 6}
timing: {warmup_ms: 5, samples: 20}
limits: {timeout_s: 180}
flags: [-O3]
baseline: general
variants:
  general: {$P: 0}
  twin: {$P: $twin}
  cheat: {$P: $cheat}
repeats: 2
EOF
	"$EVIDENT" run --no-progress --store "$TEST_TMP/$f" $f.yaml > $f-run.out 2>&1
	cat $f-run.out
	# every run's outcome, one line a run: VARIANT OUTCOME
	python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    d = json.load(open(f))
    if d.get("variant"):
        print(d["variant"], d.get("outcome"))' "$TEST_TMP/$f" | sort > $f-outcomes.out
	cat $f-outcomes.out
	for v in general twin cheat; do
		expect_eq "$(grep -c "^$v " $f-outcomes.out)" 2 "$f $v's runs"
	done
	expect_eq "$(grep -c '^general ok$' $f-outcomes.out)" 2 "$f general ok"
	expect_eq "$(grep -c '^twin ok$' $f-outcomes.out)" 2 "$f's honest twin ok"
	expect_eq "$(grep -cE '^cheat (wrong_output|flaky)$' $f-outcomes.out)" 2 "$f refused"
done
exit 0
