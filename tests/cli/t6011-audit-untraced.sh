# t6011: numbers with units in a hand-written notebook that nothing generates
# or claims are reported as untraced (warnings; errors with --strict).
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
setup_tiny_repo
run_tiny tiny.yaml
cp "$REPO/tests/fixtures/paper/notebook.md" .
tiny_fix_n notebook.md "$(tiny_n)"
expect_exit 0 "$EVIDENT" audit -q notebook.md
cat >want <<'W'
notebook.md:3: untraced: '321 us' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:3: untraced: '1.4x' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:4: untraced: '47.10 μs' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:4: untraced: '50.18 µs' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:5: untraced: '1,850 GB/s' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:5: untraced: '12 %' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
notebook.md:5: untraced: '49152 bytes' is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)
audit: 1 claim: 1 supported, 0 contradicted, 0 stale, 0 unsupported; 7 untraced numbers
W
diff want "$TEST_TMP/out" || fail "untraced findings differ"
expect_exit 1 "$EVIDENT" audit --strict -q notebook.md
expect_contains "$TEST_TMP/out" '7 untraced numbers (--strict: failing)'
expect_exit 0 "$EVIDENT" audit --no-untraced notebook.md
expect_contains "$TEST_TMP/out" '; 0 untraced numbers'

# a claim traces no finer digits than it is checked to (red team 33: a
# claim written `1e5us`, checked to +-5e4 us, traced "100000 us"); whether
# the claim itself holds (the median within 0.01 s +- 0.005) is not the point
printf 'The baseline takes 0.01 s. <!-- claim: value experiment=tiny variant=base stat=median_us value=0.01s -->\n' > vague.md
"$EVIDENT" audit -q vague.md > "$TEST_TMP/v1" 2>&1
expect_not_contains "$TEST_TMP/v1" "untraced: '0.01 s'"
printf 'The baseline takes 10000 us. <!-- claim: value experiment=tiny variant=base stat=median_us value=0.01s -->\n' > vague2.md
"$EVIDENT" audit -q vague2.md > "$TEST_TMP/v2" 2>&1
expect_contains "$TEST_TMP/v2" "vague2.md:1: untraced: '10000 us' is neither generated"
