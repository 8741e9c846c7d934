# t0319 - red team 268 (host/redteam268/README.md): a value claim on a time
# read one row of the code per batch (the claimed row in its own batch),
# so eight rows of one binary in one batch were eight draws: a median
# claimed of the luckiest row at its CI's low end was supported while the
# seven other rows excluded it, 3 of 3.  Now every ok row of the code in a
# batch votes (audit_value.c value_across_batches).  And red team 270: the
# same with eight echo-neutral builds of the code (salted.c SALT=1..8) and
# with rows of the binary that did not run cleanly beside the claimed ok
# one (crashy.c), 3 of 3 each: every row of the same object votes, one of
# the same echo-neutral object or loaded image only against, one that did
# not run cleanly against.  About 60 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
sh tests/fixtures/adversary/host/redteam268/rows.sh "$TEST_TMP/r" > rows.out 2>&1
cat rows.out
expect_match rows.out "^== audit .*: claim on s[1-8] at "
expect_match rows.out "claim.md:3: contradicted: value host-redteam268-rows/s[1-8] median_us=.*; but only [0-9] of 8 batches of the same code"
D=tests/fixtures/adversary/host/redteam270
sh $D/salt.sh "$TEST_TMP/s" > salt.out 2>&1
cat salt.out
expect_match salt.out "claim.md:3: contradicted: value host-redteam270-salt/t[1-8] median_us=.*; but only [0-9] of [0-9]+ batches of the same code"
sh $D/crashy.sh "$TEST_TMP/k" > crashy.out 2>&1
cat crashy.out
if grep -q "claim.md:3:" crashy.out; then
	grep -q "claim.md:3: supported" crashy.out && fail "a value of one ok row supported beside rows of its binary that did not run cleanly"
else
	echo "note: crashy.sh found no ok row to claim here"
fi
exit 0
