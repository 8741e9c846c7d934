# t0363 - red team 305 (host/redteam305/README.md) row 1: a spec atol a
# hair above the problem's (1.00001e-5) added the spec's whole atol times
# the output's largest value to every bound softmax_focus judged (the
# checker loosened the focus with the spec, for an hour on 2026-12-07),
# which switched it off: red team 304's domtail.c was `ok` 12 of 12 and
# `validated`.  The entries a problem judges alone are held to the
# problem's own bounds whatever the spec asks (as rowsum's and gemm's
# always were: red teams 19 and 20's specs loosen the rule 500x so that
# only the focus judges), so domtail is refused under the hair and under
# atol 2e-5 alike, `validated domtail` contradicted.  About 8 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
D=tests/fixtures/specs
R=tests/fixtures/adversary/host/redteam305
"$EVIDENT" run --no-progress $D/host-redteam305-atolhair.yaml --store "$TEST_TMP/h" > hair.out 2>&1
cat hair.out
expect_match hair.out "^general +ok "
expect_match hair.out "^domtail +(wrong_output|flaky) "
"$EVIDENT" audit --store "$TEST_TMP/h" $R/claim-atolhair.md > haudit.out 2>&1
cat haudit.out
expect_match haudit.out "claim-atolhair.md:4: contradicted: validated host-redteam305-atolhair/domtail: "
"$EVIDENT" run --no-progress $D/host-redteam305-atol2x.yaml --store "$TEST_TMP/x" > x.out 2>&1
cat x.out
expect_match x.out "^domtail +(wrong_output|flaky) "
expect_match x.out "the spec loosens the problem's tolerance: atol 2e-05 against 1e-05"
exit 0
