# t0314 - red team 262 (host/redteam262/README.md): a methods claim
# (setting) without run= covers the batches the file's other claims read
# (t0311, red team 256), but row 1: result claims at run=latest were read
# as the experiment's newest batch without their variants (naive's
# alone, the setting's own), not the older batch they judge; and row 2:
# an evident:table pinned to the older batch counted for nothing.  "8
# seeds, 300 samples" was supported beside fast8's results at 1 seed and
# 100 samples, 3 of 3 each.  Now each claim's batch is found as its own
# reading finds it and each generated block's batch counts too
# (audit_claim.c other_claims_batches, block_batch).  About 35 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam262
# batch 1: both variants at seeds 1, samples 100; batch 2: naive alone as
# committed (8 seeds, 300 samples); then the run=latest claims audited
sh $D/latest.sh "$TEST_TMP/s" >latest.out 2>&1
cat latest.out
cmp -s tests/fixtures/specs/host-redteam262-latest.yaml "$REPO/tests/fixtures/specs/host-redteam262-latest.yaml" || fail "latest.sh left the spec edited"
expect_match latest.out "claim-latest.md:6: contradicted: setting host-redteam262-latest correctness.seeds=8: "
expect_match latest.out "claim-latest.md:7: contradicted: setting host-redteam262-latest timing.samples=300: "
"$EVIDENT" audit --store "$TEST_TMP/s" $D/claim-value.md >value.out 2>&1
cat value.out
expect_match value.out "claim-value.md:4: contradicted: setting host-redteam262-latest correctness.seeds=8: "
# row 2: a table pinned to batch 1 beside the same settings
b1=$("$EVIDENT" ls --store "$TEST_TMP/s" --batches | awk 'NR == 2 { print $1 }')
[ -n "$b1" ] || fail "no first batch"
sed "s/run=[^ ]*-batch/run=$b1/" $D/claim-table-l1.md >table.md
grep -q "run=$b1" table.md || fail "the table is not pinned to $b1"
"$EVIDENT" audit --store "$TEST_TMP/s" table.md >table.out 2>&1
cat table.out
expect_match table.out "table.md:4: contradicted: setting host-redteam262-latest correctness.seeds=8: "
expect_match table.out "table.md:5: contradicted: setting host-redteam262-latest timing.samples=300: "
exit 0
