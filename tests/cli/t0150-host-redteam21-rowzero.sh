# Red team 21 (tests/fixtures/adversary/host/redteam21/README.md): every
# row of a softmax `large` launch was of a large kind (offset, or huge
# elements), and every layernorm `offset` row had a large mean, so row 0
# named the whole launch's distribution: rowzero_poly (no row max and a
# polynomial exp, correct on [-1, 1], whenever row 0 looked `uniform`)
# was ok 9 of 9 and 4.7x to 5.9x "faster"; rowzero_nomax ok 9 of 9;
# ln_rowzero (a one-pass variance) ok 3 of 3.  Now the stress
# distributions are `uniform` itself except a few rows (and elements) at
# places from the seed's high bits: every one is refused.  Red team 22's
# colscan_poly read column 0 instead (every `large` launch had an offset
# row): ok 4 of 4 and 4.6x to 5.4x; `large` now has lone elements of three
# kinds in every launch and offset rows in half of them.
. "$REPO/tests/cli/lib.sh"
mkrepo
for s in 21-softmax 21-layernorm 22-softmax; do
	timeout -s KILL 120 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam$s.yaml > "$TEST_TMP/$s" 2>&1
	[ $? != 137 ] || fail "evident run ($s) still ran after 120 s"
	grep "UNEXPECTED" "$TEST_TMP/$s" && fail "a $s variant did not get its expected outcome"
done
# refused: wrong_output, or flaky where a launch's row 0 was a stress row
# (their honest path), or nan
expect_match "$TEST_TMP/21-softmax" "^rowzero_poly +(wrong_output|flaky|nan) "
expect_match "$TEST_TMP/21-softmax" "^rowzero_nomax +(wrong_output|flaky|nan) "
expect_match "$TEST_TMP/21-layernorm" "^ln_rowzero +(wrong_output|flaky) "
expect_match "$TEST_TMP/21-layernorm" "^ln_onepass_all +(wrong_output|flaky) "
expect_match "$TEST_TMP/22-softmax" "^colscan_poly +(wrong_output|flaky|nan) "
expect_match "$TEST_TMP/21-softmax" "^honest +ok "
expect_match "$TEST_TMP/21-layernorm" "^honest +ok "
expect_match "$TEST_TMP/22-softmax" "^honest +ok "
exit 0
