# t0313 - red team 258 (host/redteam258/README.md) rows 3 and 4: an error
# claim read one row of its batch, so among eight rows of one coin-flip
# kernel (coin.c, wrong in about 1 process of 4) the claim at a row that
# came out ok was supported 3 of 3 (audit_value.c error_across_runs now
# reads every run of the code, audit_runs_of_code, as validated does:
# other rows, batches, experiments, ways of timing and killed tries); and
# a time claim pinned to a one-repeat batch decided alone, while such
# batches have no vote against it (90 us supported beside five batches
# at 220-498 us): now unsupported, fewer than 3 processes.  About 60 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam258
sh $D/speed.sh "$TEST_TMP/s" 3 >speed.out 2>&1
cat speed.out
expect_match speed.out "s.claim.md:3: unsupported: value host-redteam258-speed/coin median_us=.*ran coin in fewer than 3 processes"
sh $D/coin.sh "$TEST_TMP/c" >coin.out 2>&1
cat coin.out
grep -q "not a try" coin.out && skip "no row of coin.c came out ok beside a failed one here: nothing to claim"
expect_match coin.out "c.claim.md:3: contradicted: value host-redteam258-coin/c[0-9]+ max_abs_err=.*of the same code recorded a largest error of"
exit 0
