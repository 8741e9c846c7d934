# t6012: every rule of the number scan on a lab report written by hand
# (tests/fixtures/paper/labreport.md, rules in docs/paper.md "Untraced
# numbers"): exactly these numbers read as results nothing backs, and
# a claim traces only a number of its own quantity.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
setup_tiny_repo
run_tiny tiny.yaml
cp "$REPO/tests/fixtures/paper/labreport.md" .
tiny_fix_n labreport.md "$(tiny_n)"
expect_exit 1 "$EVIDENT" audit -q labreport.md
tail='is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)'
grep ': untraced: ' "$TEST_TMP/out" | while IFS= read -r l; do printf '%s\n' "${l% "$tail"}"; done >got
cat >want <<'W'
labreport.md:3: untraced: '321 us'
labreport.md:3: untraced: '1.4x'
labreport.md:3: untraced: '0.2 ms'
labreport.md:3: untraced: '12 %'
labreport.md:4: untraced: '1,850 GB/s'
labreport.md:4: untraced: '49152 bytes'
labreport.md:4: untraced: '3.5 TFLOP/s'
labreport.md:4: untraced: '8.33×'
labreport.md:5: untraced: '321 us'
labreport.md:5: untraced: '−5%'
labreport.md:5: untraced: '47 us'
labreport.md:5: untraced: '40 us'
labreport.md:5: untraced: '12 ms'
labreport.md:6: untraced: '$0.16'
labreport.md:6: untraced: '2 hours'
labreport.md:6: untraced: '90 min'
labreport.md:6: untraced: '3 days'
labreport.md:7: untraced: '5 seeds'
labreport.md:7: untraced: '300 samples'
labreport.md:13: untraced: '42 us' (a figure quoted as code)
labreport.md:13: untraced: '50.18' (a figure quoted as code)
labreport.md:14: untraced: '300' (named 'samples' in code)
labreport.md:14: untraced: '113.92' (named 'median_us' in code)
labreport.md:18: untraced: '50.18' (a decimal in program output)
labreport.md:19: untraced: '321 us'
labreport.md:26: untraced: '30 s'
labreport.md:31: untraced: '113.92' (unit 'us' from its table column)
labreport.md:31: untraced: '1' (a result under its column 'speedup')
labreport.md:32: untraced: '131.49' (unit 'us' from its table column)
labreport.md:32: untraced: '0.87x'
labreport.md:44: untraced: '20 us'
labreport.md:44: untraced: '20x'
labreport.md:44: untraced: '2 s'
labreport.md:44: untraced: '20' (named 'seeds' in code)
labreport.md:48: untraced: '20 samples'
W
diff want got || fail "the scan found other numbers than the fixture documents"
grep -q ': untraced: .* is neither generated' "$TEST_TMP/out" || fail "the message was not stripped as expected"
# the claims that trace the numbers of lines 37-38 hold; the malformed one is an error
expect_contains "$TEST_TMP/out" "labreport.md:49: error: claim 'value': tol=50% is wider than the 5% a claim may allow"
expect_contains "$TEST_TMP/out" 'audit: 7 claims: 6 supported, 0 contradicted, 0 stale, 0 unsupported, 1 malformed; 35 untraced numbers'

# other spellings of the units (red team 33: none of these was seen), and
# a unit after "KEY=" (a name's value has none: "B=4" stays a name's)
mkdir -p sp/store
cat > sp/s.md <<'M'
It ran 3.8-fold faster, at 9.5 Gflop/s and 2.1 TFlops, a median of 21 milliseconds
against 1.3e2 microseconds, so speedup=3.8x at B=4 with STAGES=2.
M
"$EVIDENT" audit --store sp/store sp/s.md > "$TEST_TMP/sp.out" 2>&1
for n in "'3.8-fold'" "'9.5 Gflop/s'" "'2.1 TFlops'" "'21 milliseconds'" "'1.3e2 microseconds'" "'3.8x'"; do
	expect_contains "$TEST_TMP/sp.out" "untraced: $n"
done
expect_not_contains "$TEST_TMP/sp.out" "untraced: '4'"
expect_not_contains "$TEST_TMP/sp.out" "untraced: '2'"
expect_contains "$TEST_TMP/sp.out" "; 6 untraced numbers"

# "N times": a ratio when written with a decimal point or followed by a
# comparison, a count otherwise (red team 33: "3.8 times" was unseen)
cat > sp/t.md <<'M'
It was 3.8 times faster, then 2 times the baseline's rate, and 2.5 times in all.
We ran it 3 times, and 4 times over three days.
M
"$EVIDENT" audit --store sp/store sp/t.md > "$TEST_TMP/tm.out" 2>&1
for n in "'3.8 times'" "'2 times'" "'2.5 times'"; do
	expect_contains "$TEST_TMP/tm.out" "untraced: $n"
done
expect_not_contains "$TEST_TMP/tm.out" "untraced: '3 times'"
expect_not_contains "$TEST_TMP/tm.out" "untraced: '4 times'"
expect_contains "$TEST_TMP/tm.out" "; 3 untraced numbers"
