# t0364 - red team 306 (host/redteam306/README.md) row 1: gemm's entries
# were judged one by one on `cancel` alone, and `large` (A to 100: a
# kernel tells it from one pass over its inputs) left its entries under
# the secret row, column and tile scales held to atol max |C|: blockskip.c
# dropped the block products of terms under that on `large` launches only
# and was `ok` 18 of 18 runs and `validated`.  Now gemm_focus judges every
# distribution: blockskip refused, `validated blockskip` contradicted,
# the honest twin and kernels/gemm/naive.c `ok` (test_gemm_focus: honest
# orders at most 0.473 of the bound on `uniform` and `large`).  About 8 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
D=tests/fixtures/specs
R=tests/fixtures/adversary/host/redteam306
"$EVIDENT" run --no-progress $D/host-redteam306-blockskip.yaml --store "$TEST_TMP/s" > run.out 2>&1
cat run.out
expect_match run.out "^naive +ok "
expect_match run.out "^twin +ok "
expect_match run.out "^blockskip +(wrong_output|flaky) "
expect_match run.out "blockskip: (wrong_output|flaky) - .*\(large inputs\).* out of tolerance"
"$EVIDENT" audit --store "$TEST_TMP/s" $R/claim-blockskip.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim-blockskip.md:4: contradicted: validated host-redteam306-blockskip/blockskip: "
expect_match audit.out "claim-blockskip.md:9: supported: validated host-redteam306-blockskip/naive: "
exit 0
