# t6003: the paper's calibration block counts the verdicts of an A/A
# experiment over every batch of it: grouped by repeats a side, the columns
# add up to the comparisons, the false-positive rate has its Wilson
# interval, a one-repeat batch is "none decided", the batches counted are
# named, and an experiment with no batch is a missing block (exit 1), not
# an empty table.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat >aa.yaml <<'EOF'
name: aa-tiny
question: Does one kernel, timed as three variants, differ from itself?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 32, D: 16}
baseline: a1
variants:
  a1: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 1000}
  a2: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 1000}
  a3: {kernel: tests/fixtures/host/sleepy.c, SLEEP_US: 1000}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 8, cache: hot}
limits: {timeout_s: 20}
EOF
batch() { sed -n 's/^records: .* and batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out"; }
expect_exit 0 "$EVIDENT" run --repeats 2 aa.yaml
B1=$(batch)
expect_exit 0 "$EVIDENT" run --repeats 2 aa.yaml
B2=$(batch)
expect_exit 0 "$EVIDENT" run --repeats 1 aa.yaml
B3=$(batch)
[ -n "$B1" ] && [ -n "$B2" ] && [ -n "$B3" ] || fail "no batch ids in the output"

printf '# A/A\n<!-- evident:calibration experiment=aa-tiny -->\n' >P.md
expect_exit 0 "$EVIDENT" paper P.md
expect_contains P.md "<!-- /evident:calibration -->"
expect_contains P.md "| repeats a side | batches | comparisons | faster | slower | no_difference | inconclusive | false-positive rate [95% CI] |"
expect_match P.md '^\| 1 \| 1 \| 2 \| 0 \| 0 \| 0 \| 2 \| none decided: every verdict inconclusive \|$'
python3 - P.md <<'PY' || fail "the repeats-2 row does not add up"
import re, sys, math
rows = [l for l in open(sys.argv[1]) if l.startswith("| 2 |")]
assert len(rows) == 1, rows
c = [x.strip() for x in rows[0].strip().strip("|").split("|")]
rep, nb, ncmp, fa, sl, nd, inc = map(int, c[:7])
assert (nb, ncmp) == (2, 4), c
assert fa + sl + nd + inc == ncmp, c
if fa + sl + nd == 0:  # a loaded machine can leave every verdict inconclusive
    assert c[7] == "none decided: every verdict inconclusive", c[7]
    sys.exit(0)
m = re.match(r"(\d+)/(\d+) = ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", c[7])
assert m, c[7]
k, n = int(m.group(1)), int(m.group(2))
assert (k, n) == (fa + sl, ncmp), c
# the Wilson interval of k in n
z = 1.959963984540054; p = k / n; d = 1 + z*z/n
mid = (p + z*z/(2*n)) / d; h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n)) / d
assert abs(float(m.group(4)) - 100*max(0, mid-h)) < 0.06 and abs(float(m.group(5)) - 100*min(1, mid+h)) < 0.06, c[7]
PY
for b in "$B1" "$B2" "$B3"; do expect_contains P.md "\`$b\`"; done
expect_contains P.md "every batch that is not a reproduction (3)"

# regenerating changes nothing
cp P.md P0.md
expect_exit 0 "$EVIDENT" paper P.md
cmp -s P.md P0.md || fail "a second paper run changed the calibration block"

# an experiment with no batch: a missing block, said where
printf '<!-- evident:calibration experiment=nosuch -->\n' >M.md
expect_exit 1 "$EVIDENT" paper M.md
expect_contains "$TEST_TMP/err" "M.md:1: no batch of experiment 'nosuch' in the store"
# the block needs its experiment
printf '<!-- evident:calibration -->\n' >N.md
expect_exit 1 "$EVIDENT" paper N.md
expect_contains "$TEST_TMP/err" "N.md:1: the 'calibration' marker needs experiment=..."
