# t0319 - red team 268 (host/redteam268/README.md): a value claim on a time
# read one row of the code per batch (the claimed row in its own batch),
# so eight rows of one binary in one batch were eight draws: a median
# claimed of the luckiest row at its CI's low end was supported while the
# seven other rows excluded it, 3 of 3.  Now every ok row of the code in a
# batch votes (audit_value.c value_across_batches).  About 20 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
sh tests/fixtures/adversary/host/redteam268/rows.sh "$TEST_TMP/r" > rows.out 2>&1
cat rows.out
expect_match rows.out "^== audit .*: claim on s[1-8] at "
expect_match rows.out "claim.md:3: contradicted: value host-redteam268-rows/s[1-8] median_us=.*; but only [0-9] of 8 batches of the same code"
exit 0
