# Red team 33 (tests/fixtures/adversary/host/redteam33/README.md, finding
# 4): an A/A experiment run 58 times gave 57 batches inconclusive or
# no_difference and one "faster 1.484x, p 0.023"; a claim on that batch
# was supported and audit --strict passed.  Now a verdict claim is
# weighed against every batch of the experiment that ran the same
# binaries on the same device with more than one process a side: fewer
# than half giving the claimed verdict contradicts it ("only k of n").
# Here the same binary is made slower in one batch only (its sleep from
# the runner's environment), then measured alike in two more.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
runs_alone_light "verdicts timed on the CPU (it mostly sleeps: two such tests share a CPU in make test's alone phase)"
setup_tiny_repo
# 10 timed samples a process, not 20 (every batch here alike): envslow's
# 30 ms more a launch is 7 times base's 5 ms, and the checks read
# verdicts and counts of batches, not of samples: batch 1 read 0.150x to
# 0.155x, the usual draw each time, and the test took 15.7-17.7 s (6.0-6.5
# s of CPU, plain) against 20.6 s (6.6) with 20 (3 runs, 2026-12-01, load
# 1-2 from other sessions).
sed -i 's/samples: 20,/samples: 10,/' tiny-env.yaml && grep -q 'samples: 10,' tiny-env.yaml || fail "tiny-env.yaml: no samples: 10"
EVIDENT_TINY_EXTRA_MS=30 run_tiny tiny-env.yaml
b1=$(ls "$EVIDENT_STORE"/runs/*-batch.json | xargs -n1 basename | sed 's/\.json$//')
run_tiny tiny-env.yaml
run_tiny tiny-env.yaml
printf 'Slower. <!-- claim: slower experiment=tiny-env a=envslow b=base run=%s -->\n' "$b1" > c.md
"$EVIDENT" audit --no-untraced c.md > "$TEST_TMP/audit" 2>&1
rc=$?
# what the records say: batch 1's verdict, and how many of the three give slower
read -r v1 k n <<<"$(python3 - "$EVIDENT_STORE" "$b1" <<'PY'
import glob, json, sys
st, b1 = sys.argv[1:]
k = n = 0
v1 = None
for f in glob.glob(st + "/runs/*-batch.json"):
    b = json.load(open(f))
    v = [x for x in b["variants"] if x["variant"] == "envslow"][0]
    verdict = (v.get("comparison") or {}).get("verdict")
    n += 1
    k += verdict == "slower"
    if b["run_id"] == b1:
        v1 = verdict
print(v1, k, n)
PY
)"
expect_eq "$v1" "slower" "batch 1 (30 ms more a launch) finds envslow slower"
if [ $((2 * k)) -lt "$n" ]; then
	expect_eq "$rc" 1 "audit exit (only $k of $n batches slower)"
	expect_contains "$TEST_TMP/audit" "c.md:1: contradicted: slower envslow vs base: "
	# every pair of rows of the two codes is counted (red team 42): in
	# each batch envslow against base and against twin (base's code)
	expect_match "$TEST_TMP/audit" "but only [0-9]+ of [0-9]+ comparisons of the same code \(every pair of its rows, in $n batches\) on "
	expect_contains "$TEST_TMP/audit" "a verdict the next run reverses"
else
	# the two later batches found it slower too, by chance (each about 1 in
	# 40): the majority holds, but envslow ran in batch 1 far slower than
	# its code's fastest in the store, 30 ms a launch (red team 59)
	expect_eq "$rc" 1 "audit exit ($k of $n batches slower)"
	expect_match "$TEST_TMP/audit" "; [0-9]+ of [0-9]+ comparisons of the same code \(every pair of its rows, in $n batches\) on "
	expect_contains "$TEST_TMP/audit" "but envslow, the side it says is slower, ran "
fi
# a pair the batch never compared (neither is the baseline) is weighed as
# one of the batch's 3 pairs (red team 34: 1 of 30 pairs of 7 copies of one
# kernel came out "faster 1.768x" unadjusted)
printf 'Slower. <!-- claim: slower experiment=tiny-env a=envslow b=twin run=%s -->\n' "$b1" > p.md
"$EVIDENT" audit --no-untraced p.md > "$TEST_TMP/pair" 2>&1
expect_contains "$TEST_TMP/pair" "adjusted over the batch's 3 pairs"
# a batch at another shape (the same binaries: the shape is a launch
# argument) measures something else and is not counted (red team 34)
sed 's/S: 64, D: 32/S: 32, D: 32/' tiny-env.yaml > tiny-env-s32.yaml
run_tiny tiny-env-s32.yaml
# one more batch with the sleep: two of four say slower, exactly half: no
# majority, unsupported (fix50: before, a tie went to the claim), with the
# counts; where a later batch found it slower by chance, more than half:
# supported
EVIDENT_TINY_EXTRA_MS=30 run_tiny tiny-env.yaml
b4=$(ls "$EVIDENT_STORE"/runs/*-batch.json | xargs -n1 basename | sed 's/\.json$//' | sort | tail -1)
printf 'Slower. <!-- claim: slower experiment=tiny-env a=envslow b=base run=%s -->\n' "$b4" > d.md
"$EVIDENT" audit --no-untraced d.md > "$TEST_TMP/audit2" 2>&1
rc=$?
expect_match "$TEST_TMP/audit2" "d.md:1: [a-z]+: slower envslow vs base: .*; (but only )?[0-9]+ of [0-9]+ comparisons of the same code \(every pair of its rows, in 4 batches\) on "
read -r k4 n4 <<<"$(sed -nE 's/.*; (but only )?([0-9]+) of ([0-9]+) comparisons of the same code.*/\2 \3/p' "$TEST_TMP/audit2")"
if [ $((2 * k4)) -eq "$n4" ]; then
	expect_eq "$rc" 1 "audit exit ($k4 of $n4 comparisons slower)"
	expect_contains "$TEST_TMP/audit2" "d.md:1: unsupported: slower envslow vs base: "
	expect_contains "$TEST_TMP/audit2" "exactly half, no majority of the reruns"
elif [ $((2 * k4)) -gt "$n4" ]; then
	expect_eq "$rc" 0 "audit exit ($k4 of $n4 comparisons slower)"
	expect_contains "$TEST_TMP/audit2" "d.md:1: supported: slower envslow vs base: "
else
	expect_contains "$TEST_TMP/audit2" "d.md:1: contradicted: slower envslow vs base: "
fi
# The same binaries under another spec and other variant names are the
# same evidence (red team 34, finding 3: a renamed spec had no other batch
# to be weighed against), and a pair neither side of which is the baseline
# is compared in every batch as in its own (before, such a pair counted
# no batch at all, its own included).
sed -e 's/^name: tiny-env/name: tiny-renamed/' -e 's/^baseline: base/baseline: ref/' -e 's/^  base: /  ref:  /' \
	-e 's/^  envslow: /  late:    /' -e 's/^  twin: /  copy: /' tiny-env.yaml > tiny-renamed.yaml
run_tiny tiny-renamed.yaml
"$EVIDENT" audit --no-untraced d.md > "$TEST_TMP/audit3" 2>&1
expect_match "$TEST_TMP/audit3" "d.md:1: [a-z]+: slower envslow vs base: .* comparisons of the same code \(every pair of its rows, in 5 batches\) on "
printf 'Slower. <!-- claim: slower experiment=tiny-env a=envslow b=twin run=%s -->\n' "$b4" > q.md
"$EVIDENT" audit --no-untraced q.md > "$TEST_TMP/pair2" 2>&1
# (the precondition: its own batch's verdict is slower; a load spike can
# widen the between-process spread past p 0.05, CI's run at load 221 read
# 0.176x [0.147, 0.419], p 0.12, and the claim is contradicted by its own
# batch before other batches are weighed)
if grep -qF "verdict inconclusive (3 and 3 repeats, two-level, p " "$TEST_TMP/pair2"; then
	skip "batch $b4's envslow vs twin read inconclusive at load $(cut -d' ' -f1 /proc/loadavg) (its 30 ms extra is the precondition): $(head -c 300 "$TEST_TMP/pair2")"
fi
expect_contains "$TEST_TMP/pair2" "verdict slower (3 and 3 repeats, two-level, p "
expect_match "$TEST_TMP/pair2" "q.md:1: [a-z]+: slower envslow vs twin: .* comparisons of the same code \(every pair of its rows, in 5 batches\) on "
exit 0
