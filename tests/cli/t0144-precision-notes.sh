# The precision notes (gather.c precision_notes): a variant exact only
# where a check would catch it (red team 13's class 1: rt13_fp16_sniff
# accumulated in fp16 except on gemm's `cancel`, ok and 1.44x "faster" on
# an H200) has its error against the baseline's named by distribution.
# Before the notes its batch said nothing of it.  An identical kernel gets
# no such note.
. "$REPO/tests/cli/lib.sh"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/host-precision.yaml > "$TEST_TMP/out" 2>&1 ||
	fail "evident run exited $? (all three variants should be ok)"
expect_match "$TEST_TMP/out" "^sniff +ok"
# since softmax `large` is `uniform` but for a few secret rows (red team
# 21), the sniff's cheap path runs on most of `large` too: the note names
# its error on one distribution (uniform or large, whichever the checks
# show more), or by distribution where the stress rows showed
expect_match "$TEST_TMP/out" "sniff: (its error against honest's depends on the input: [0-9.]+x on [a-z_]+|[0-9.]+x honest's error on (uniform|large))"
grep -q "honest2: .*error" "$TEST_TMP/out" && fail "an identical kernel got a precision note"
exit 0
