# t0363 - red team 305 (host/redteam305/README.md) row 1: a spec atol a
# hair above the problem's (1.00001e-5) added the spec's whole atol times
# the output's largest value to every bound softmax_focus judges, which
# switched it off: red team 304's domtail.c was `ok` 12 of 12 and
# `validated`.  Now a spec's atol adds only its excess over the
# problem's (domtail refused under the hair), and where a spec does
# loosen the rule each check records its focus's worst against the
# problem's own bounds too (`focus.worst_own`), which the audit reads:
# under atol 2e-5 domtail is `ok` by its spec and `validated domtail`
# unsupported.  About 8 s.
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
expect_match x.out "^domtail +ok "
expect_match x.out "the spec loosens the problem's tolerance: atol 2e-05 against 1e-05"
printf 'x <!-- claim: validated experiment=host-redteam305-atol2x variant=domtail -->\n' > c.md
"$EVIDENT" audit --store "$TEST_TMP/x" c.md > xaudit.out 2>&1
cat xaudit.out
expect_match xaudit.out "unsupported: validated host-redteam305-atol2x/domtail: checked under a spec tolerance looser .*entries judged alone came to [0-9.e+]+ of the problem's own bounds"
exit 0
