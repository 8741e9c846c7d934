# t0122: the PAPER.md block of a search, <!-- evident:search experiment=E
# run=latest path=F.svg -->: the search's line, a table of its generations,
# why each best was chosen, the tree of its candidates (a knob that missed
# the binary says so) and the figure of the best per generation with its
# CI, written at path.  A second `evident paper` changes nothing, audit
# finds no untraced number in it, and a block naming an experiment without
# a search says so.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/evo.yaml <<'Y'
name: evo
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: tests/fixtures/host/sleepy.c
variants:
  base: {SLEEP_US: 3000, UNUSED: 1}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 4, cache: hot}
search:
  population: 2
  generations: 1
  seed: 8
  tunables:
    SLEEP_US: {range: [1000, 3000], step: 1000}
    UNUSED: {choices: [1, 2]}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/evo.yaml
S=$(ls artifacts/runs | grep -- '-search.json$' | sed 's/\.json$//')
cat > P.md <<'M'
# evo

<!-- evident:store path=artifacts -->

<!-- evident:search experiment=evo run=latest path=figures/evo-search.svg -->
M
printf '<!-- evident:store path=artifacts -->\n\n<!-- evident:search experiment=nothing run=latest path=figures/none.svg -->\n' > N.md
expect_exit 1 "$EVIDENT" paper N.md
expect_contains "$TEST_TMP/err" "no search of experiment 'nothing'"
expect_exit 0 "$EVIDENT" paper P.md
expect_contains P.md "*Search:* experiment \`evo\`, search \`$S\` (latest)"
expect_contains P.md "| generation | batch | best going in | candidates | faster | no_difference | inconclusive | slower | failed | knob missed the binary | best after | its median us [95% CI] |"
expect_match P.md '^\| 0 \| `[^`]*-batch` \| base \| 2 \| '
expect_match P.md '^- generation 0: (base kept|g0c[01] promoted)'
expect_match P.md '^- \*\*base\*\* \(the start, generation 0\): ok, '
expect_match P.md '^  - \*\*g0c1\*\* `UNUSED 1->2` \(generation 0\): .*\*\*no effect\*\*: UNUSED 1->2 did not reach the binary'
expect_contains P.md "![evo: the best so far per generation, median with 95% CI (search $S)](figures/evo-search.svg)"
[ -f figures/evo-search.svg ] || fail "the figure was not written"
python3 -c "import xml.dom.minidom as m; m.parse('figures/evo-search.svg')" || fail "the figure is not well-formed XML"
expect_contains figures/evo-search.svg "generation 0"
expect_contains figures/evo-search.svg "start: base"
cp P.md P.first
expect_exit 0 "$EVIDENT" paper P.md
cmp -s P.md P.first || fail "a second evident paper changed the file"
expect_contains "$TEST_TMP/out" "P.md: 1 block unchanged, 0 figures rewritten"
expect_exit 0 "$EVIDENT" audit P.md
exit 0
