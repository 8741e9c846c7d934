# t6014: an audit line gives one CI for one speedup (issue 23, item 8).  A
# claim stating a speedup outside the recorded CI was contradicted with
# two intervals both called "the 95% CI": the CI widened by the stated
# value's precision and the CI itself.  The line now holds the recorded CI
# once, the same as `evident show` prints for the batch, and says the
# precision apart; a tolerance is an interval of its own and says so.
. "$REPO/tests/cli/lib.sh"
S="$REPO/artifacts"
[ -d "$S/runs" ] || skip "no committed store in $S"
B=20261125T042122.811Z-iter1-920d1840-batch
[ -e "$S/runs/$B.json" ] || skip "the committed store has no batch $B"
cat >claims.md <<EOF2
wmma is faster. <!-- claim: faster experiment=iter1 a=wmma b=base run=$B speedup=1.6x -->
wmma is faster. <!-- claim: faster experiment=iter1 a=wmma b=base run=$B speedup=1.6x tol=1% -->
EOF2
(cd "$REPO" && "$EVIDENT" audit --store "$S" --no-untraced "$TEST_TMP/claims.md") >audit.txt 2>&1
expect_eq "$?" 1 "audit of contradicted claims"
expect_exit 0 "$EVIDENT" show --store "$S" "$B"
ci=$(grep -E '^wmma ' "$TEST_TMP/out" | grep -oE '[0-9.]+x \[[0-9.]+, [0-9.]+\]' | head -1)
[ -n "$ci" ] || fail "no speedup of wmma in show"
line=$(grep -F 'claims.md:1: contradicted: faster wmma vs base: ' audit.txt)
[ -n "$line" ] || { cat audit.txt; fail "no finding for the first claim"; }
expect_eq "$(grep -oE '\[[0-9.]+, [0-9.]+\]' <<<"$line" | wc -l)" 1 "intervals on the line: $line"
grep -qF "speedup of wmma over base $ci," <<<"$line" || fail "the line's CI is not show's ($ci): $line"
grep -qF "stated speedup 1.6x lies outside the 95% CI, even at the precision it is written to (+-0.05); " <<<"$line" ||
	fail "the line does not say the precision apart: $line"
line=$(grep -F 'claims.md:2: contradicted: faster wmma vs base: ' audit.txt)
grep -qE "stated speedup 1\.6x lies outside the tolerance \[[0-9.]+, [0-9.]+\]; " <<<"$line" || fail "the tolerance line: $line"
grep -qF "speedup of wmma over base $ci," <<<"$line" || fail "the tolerance line's CI is not show's ($ci): $line"
