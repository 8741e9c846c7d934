# t6000: 'evident paper' fills table, provenance, value, figure, negative and
# cost blocks from a real run, leaves every other byte alone, and a second
# run changes nothing (markdown and SVG bytes).
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
runs_alone_light "the fixture's slow variant must be judged slower: a verdict timed on the CPU (it mostly sleeps: two such tests share a CPU in make test's alone phase)"
setup_tiny_repo
run_tiny tiny.yaml
cp "$REPO/tests/fixtures/paper/PAPER.md" PAPER.md
expect_exit 0 "$EVIDENT" paper PAPER.md
expect_contains PAPER.md '| base (baseline) | REPEAT=1 | ok | 3/3 |'  # the host's default: 3 repeats
expect_contains PAPER.md '| slow | REPEAT=6 | ok | 3/3 |'
# an evident-batch/2 table: repeats, and the throughput where the problem has FLOPs and bytes
expect_contains PAPER.md '| variant | parameters | outcome | repeats ok | median us [95% CI] | GFLOP/s | GB/s | speedup [95% CI] |'
expect_contains PAPER.md '**slower**'
expect_contains PAPER.md '*Provenance:* experiment `tiny`, batch `'
expect_contains PAPER.md '(latest); no git commit recorded; CPU: '
expect_contains PAPER.md 'attention_fwd B=1 H=1 S=64 D=32 fp32; runs `'
expect_contains PAPER.md "stat=n -->$(tiny_n)<!-- /evident:value -->"
expect_contains PAPER.md '![tiny: distribution of time per launch (ECDF)'
expect_contains PAPER.md '| `tiny` | 1 | 6 | 0 |'
expect_contains PAPER.md '- `slow`: **slower** than `base`: speedup 0.'
# hand-written prose is untouched: no line of the fixture (bar the inline
# values, rewritten in place) is lost or altered
grep -v 'evident:value' "$REPO/tests/fixtures/paper/PAPER.md" >before.md
diff before.md PAPER.md | grep '^<' && fail "prose outside the blocks changed"
for f in figures/tiny-ecdf.svg figures/tiny-box.svg figures/tiny-speedup.svg; do
	[ -s "$f" ] || fail "figure $f not written"
	expect_contains "$f" '<svg xmlns="http://www.w3.org/2000/svg"'
done
cp PAPER.md first.md; cp figures/tiny-ecdf.svg first.svg
expect_exit 0 "$EVIDENT" paper PAPER.md
cmp first.md PAPER.md || fail "second 'evident paper' changed PAPER.md"
cmp first.svg figures/tiny-ecdf.svg || fail "second 'evident paper' changed a figure"
expect_contains "$TEST_TMP/out" 'PAPER.md: 9 blocks unchanged, 0 figures rewritten'
expect_exit 0 "$EVIDENT" paper --check PAPER.md
# a new run makes --check fail (4 repeats: a batch of fewer than 3 is
# no latest result while one of 3 exists, red team 122, t0216)
"$EVIDENT" run --repeats 4 tiny.yaml >"$TEST_TMP/run.out" 2>&1 || { cat "$TEST_TMP/run.out"; fail "run --repeats 4"; }
expect_exit 1 "$EVIDENT" paper --check PAPER.md
expect_contains "$TEST_TMP/out" 'PAPER.md: out of date (generated blocks and figures)'
cmp first.md PAPER.md || fail "--check wrote PAPER.md"
# with repeats: each row names its repeats, the table says what is two-level, every run is named
expect_exit 0 "$EVIDENT" paper PAPER.md
expect_contains PAPER.md '| slow | REPEAT=6 | ok | 4/4 |'
expect_contains PAPER.md '*Repeats:* each variant ran in 4 worker processes (interleaved order); medians, CIs and p-values are two-level'
expect_contains PAPER.md 'Share of the variance between repeats: `base` '
[ "$(grep '^\*Provenance:\*' PAPER.md | head -1 | grep -o '`[0-9T.Z]*-tiny-[0-9a-f]*`' | wc -l)" = 8 ] ||
	fail "the provenance line does not name the 8 runs of the batch"
