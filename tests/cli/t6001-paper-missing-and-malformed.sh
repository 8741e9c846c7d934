# t6001: with no recorded run the blocks say so and paper exits 1 (the file
# is still written); a malformed marker leaves the file alone; bad options
# exit 2.
. "$REPO/tests/cli/lib.sh"
printf '# P\n\nText.\n<!-- evident:table experiment=iter1 run=latest -->\n<!-- evident:cost -->\n' >P.md
expect_exit 1 "$EVIDENT" paper P.md
expect_contains "$TEST_TMP/err" "error: P.md:4: no recorded run of experiment 'iter1'"
expect_contains P.md "*No recorded run: no recorded run of experiment 'iter1'.*"
expect_contains P.md '| **total** | 0 | 0 | 0 | 0.0 | 0.0 | n/a (no GPU time) |'
cp P.md once.md
expect_exit 1 "$EVIDENT" paper P.md
cmp once.md P.md || fail "second run changed P.md"
printf 'x <!-- evident:table experiment=iter1 -->\n' >bad.md
cp bad.md bad.orig
expect_exit 1 "$EVIDENT" paper bad.md
expect_contains "$TEST_TMP/err" "error: bad.md:1: the 'table' marker needs run=... (run=latest, or run=RUN_ID to pin a batch)"
cmp bad.orig bad.md || fail "a malformed marker changed the file"
printf 'x <!-- evident:tabel experiment=a run=latest -->\n' >bad2.md
expect_exit 1 "$EVIDENT" paper bad2.md
expect_contains "$TEST_TMP/err" "unknown block 'evident:tabel'"
expect_exit 2 "$EVIDENT" paper --bogus P.md
expect_exit 2 "$EVIDENT" audit --bogus P.md
expect_exit 0 "$EVIDENT" paper --help
expect_contains "$TEST_TMP/out" 'usage: evident paper'
