# t0362 - red team 304 (host/redteam304/README.md): softmax was judged by
# the normwise rule alone, each entry against the launch's largest output,
# so the small entries of a nearly one-hot row were held to about their
# own size: domtail.c (a quadratic exp, 0.32% off, on every entry but the
# top wherever a row's top beat the next by ln C + 1.5) was `ok` 21 of 21
# runs and `validated`.  Now fp32 entries are judged at their own
# magnitude too (problems/softmax.c softmax_focus): domtail is refused (its
# `peaked` launches; `flaky` where a `large` one passes) and `validated
# domtail` contradicted.  Row 2, a DENIAL: `large` put lone elements on
# its offset rows, made them one-hot, and kernels/softmax/naive.c was
# refused 6 of 18 runs at R 16 C 16384; it is `ok` and `validated` now
# (test_softmax_focus checks the fill itself).  About 8 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
D=tests/fixtures/specs
R=tests/fixtures/adversary/host/redteam304
"$EVIDENT" run --no-progress $D/host-redteam304-domtail.yaml --store "$TEST_TMP/s" > run.out 2>&1
cat run.out
expect_match run.out "^general +ok "
expect_match run.out "^domtail +(wrong_output|flaky) "
expect_match run.out "domtail: (wrong_output|flaky) - .*\((peaked|large) inputs\).* out of tolerance"
"$EVIDENT" audit --store "$TEST_TMP/s" $R/claim-domtail.md > audit.out 2>&1
cat audit.out
expect_match audit.out "claim-domtail.md:4: contradicted: validated host-redteam304-domtail/domtail: "
"$EVIDENT" run --no-progress $D/host-redteam304-naive16k.yaml --store "$TEST_TMP/n" > naive.out 2>&1
cat naive.out
expect_match naive.out "^naive +ok "
"$EVIDENT" audit --store "$TEST_TMP/n" $R/claim-naive.md > naudit.out 2>&1
cat naudit.out
expect_match naudit.out "claim-naive.md:4: supported: validated host-redteam304-naive16k/naive: "
exit 0
