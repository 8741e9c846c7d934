# t0196 - evident audit reads a paper's prose as a reader sees it (red
# team 86, tests/fixtures/adversary/host/redteam86/README.md).  Before, a
# result spelled a little differently (a number at a line's end with its
# unit on the next, `**1.54**x`, "54 percent", `41.7&nbsp;us`, `2.84X`,
# `2.84<!-- -->x`) was no result at all: paper-cheat.md passed
# `audit --strict` with "1.54x faster" beside a supported claim on a
# batch where b is the slower; a `stat=min_us` claim traced "b runs in
# 31.91 us" (a best case read as the time); a hand table under `median`,
# `speedup`, `time` with unitless cells passed.  Now each is untraced and
# --strict fails; the controls show the same results read alike.
# Red team 88 (tests/fixtures/adversary/host/redteam88/README.md): ~22
# contrary results in forms the scan did not read (words, other digits,
# decimals after a preposition, integers, TeX, HTML and long-header
# tables) passed beside a supported claim; "the fastest variant ... runs
# in 31.91 us" let a min_us claim trace a typical-reading time; a claim's
# verdict depended on the claims before it (the pair memo's dangling
# pointer).  Now each is untraced, and the verdict is the same in any order.
. "$REPO/tests/cli/lib.sh"
mkrepo
R=tests/fixtures/adversary/host/redteam86
sed -e 's/^repeats: 4/repeats: 1/' -e 's/samples: 200/samples: 10/' \
	tests/fixtures/specs/host-redteam86-spin.yaml > experiments/spin.yaml
grep -q '^repeats: 1' experiments/spin.yaml || fail "sed spin.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/spin.yaml
expect_match "$TEST_TMP/out" '^ +- b: ok \(expected\)'

tail='is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)'
untraced() { # FILE: its untraced findings, message tail stripped
	grep ': untraced: ' "$1" | while IFS= read -r l; do printf '%s\n' "${l% "$tail"}"; done
}

# a supported claim beside prose the runs contradict: the prose is untraced
expect_exit 1 "$EVIDENT" audit --strict -q $R/paper-cheat.md
expect_contains "$TEST_TMP/out" 'audit: 1 claim: 1 supported, 0 contradicted, 0 stale, 0 unsupported; 4 untraced numbers (--strict: failing)'
untraced "$TEST_TMP/out" > got
cat > want <<W
$R/paper-cheat.md:7: untraced: '1.54x'
$R/paper-cheat.md:8: untraced: '25.7 us'
$R/paper-cheat.md:9: untraced: '39.6 us'
$R/paper-cheat.md:10: untraced: '54 percent'
W
diff want got || fail "paper-cheat.md: other findings"
expect_exit 1 "$EVIDENT" audit --strict -q $R/paper-control.md
expect_contains "$TEST_TMP/out" '; 4 untraced numbers (--strict: failing)'

# a best case backs a bare time only where the text names it
expect_exit 1 "$EVIDENT" audit --strict -q $R/paper-stat.md
untraced "$TEST_TMP/out" > got
printf '%s\n' "$R/paper-stat.md:6: untraced: '31.91 us' (a claim states it as 'min_us', which the text before it does not name: a bare number reads as the median)" > want
diff want got || fail "paper-stat.md: other findings"
"$EVIDENT" audit --strict -q $R/paper-stat-control.md > "$TEST_TMP/ctl" 2>&1
expect_contains "$TEST_TMP/ctl" '; 0 untraced numbers'
sed 's/b runs in 31.91 us/b'"'"'s fastest sample took 31.91 us/' $R/paper-stat.md > named.md
"$EVIDENT" audit --strict -q named.md > "$TEST_TMP/named" 2>&1
expect_contains "$TEST_TMP/named" '; 0 untraced numbers'

# every spelling of untraced-cheat.md, as its control spells them plainly
expect_exit 1 "$EVIDENT" audit --strict -q $R/untraced-cheat.md
untraced "$TEST_TMP/out" > got
cat > want <<W
$R/untraced-cheat.md:7: untraced: '41.7 us'
$R/untraced-cheat.md:8: untraced: '118.3 us'
$R/untraced-cheat.md:9: untraced: '2.84 x'
$R/untraced-cheat.md:12: untraced: '2.84x'
$R/untraced-cheat.md:12: untraced: '41.7 ms'
$R/untraced-cheat.md:14: untraced: '2.84X'
$R/untraced-cheat.md:14: untraced: '184 percent'
$R/untraced-cheat.md:14: untraced: '184 per cent'
$R/untraced-cheat.md:16: untraced: '41.7 us'
$R/untraced-cheat.md:16: untraced: '2.84×'
$R/untraced-cheat.md:18: untraced: '2.84x'
$R/untraced-cheat.md:20: untraced: '2.84 x'
W
diff want got || fail "untraced-cheat.md: other findings"
expect_exit 1 "$EVIDENT" audit --strict -q $R/untraced-control.md
expect_contains "$TEST_TMP/out" '; 11 untraced numbers (--strict: failing)'

# a hand table whose headers name results
expect_exit 1 "$EVIDENT" audit --strict -q $R/untraced-table.md
untraced "$TEST_TMP/out" > got
cat > want <<W
$R/untraced-table.md:5: untraced: '25.7' (a result under its column 'median')
$R/untraced-table.md:5: untraced: '1.54' (a result under its column 'speedup')
$R/untraced-table.md:5: untraced: '25.7' (a result under its column 'time')
W
diff want got || fail "untraced-table.md: other findings"

# every spelling spellings.sh sweeps is read
sh $R/spellings.sh "$EVIDENT" > spell
if grep MISSED spell; then fail "spellings.sh: a spelling missed"; fi

# red team 88: contrary results in forms that passed, beside a supported claim
R8=tests/fixtures/adversary/host/redteam88
expect_exit 1 "$EVIDENT" audit --strict -q $R8/paper-forms.md
expect_contains "$TEST_TMP/out" '; 21 untraced numbers (--strict: failing)'
for l in 9 10 11 12 13 17 18 22 23 28 29; do
	grep -q "paper-forms.md:$l: untraced: " "$TEST_TMP/out" || fail "paper-forms.md:$l: not flagged"
done
expect_exit 1 "$EVIDENT" audit --strict -q $R8/paper-forms-control.md
expect_contains "$TEST_TMP/out" '; 7 untraced numbers (--strict: failing)'

# a statistic word names the statistic only where it modifies the number
for f in paper-fastest paper-fastest-control; do
	"$EVIDENT" audit --strict -q $R8/$f.md > "$TEST_TMP/fast" 2>&1
	n=$(grep -c ": untraced: '31.91 us' (a claim states it as 'min_us', which the text before it does not name" "$TEST_TMP/fast")
	[ "$n" = 3 ] || { cat "$TEST_TMP/fast"; fail "$f.md: $n of 3 min_us times untraced"; }
done
"$EVIDENT" audit --strict -q $R8/paper-slowest-honest.md > "$TEST_TMP/slow" 2>&1
expect_contains "$TEST_TMP/slow" '; 0 untraced numbers'

# the same claim reads the same after a claim on its pair (ASan: no
# stack-use-after-return in reruns_in)
verdict() { grep ': slower b vs a: ' "$1" | sed 's/^[^:]*:[0-9]*: //'; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=1" \
	"$EVIDENT" audit -q $R8/paper-order.md > "$TEST_TMP/order" 2>&1
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=1" \
	"$EVIDENT" audit -q $R8/paper-ciend.md > "$TEST_TMP/alone" 2>&1
if grep -q AddressSanitizer "$TEST_TMP/order" "$TEST_TMP/alone"; then fail "paper-order.md: ASan"; fi
verdict "$TEST_TMP/order" > got
verdict "$TEST_TMP/alone" > want
[ -s want ] || { cat "$TEST_TMP/alone"; fail "paper-ciend.md: no slower claim"; }
diff want got || fail "paper-order.md: the slower claim reads otherwise after the value claim"
