# Red team 32 (tests/fixtures/adversary/host/redteam32/README.md): an
# evident:scaling block showed a cheat's rate with none of the notes its
# batch records.  Two shapes of softmax whose spec loosens the problem's
# tolerance to 1 (its own: 1e-5), where const_out writes 1/C everywhere
# and is ok by the spec: the block printed const_out's GFLOP/s as any
# other, and `paper --check` and `audit --strict` passed it.  Now every
# batch's notes follow the block's table (as the one-batch table prints
# them), and a row whose spec loosened the tolerance says so in its shape
# cell; a cell whose other repeats did not end ok says how many did.
. "$REPO/tests/cli/lib.sh"
mkrepo
for c in 128 256; do
	expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam32-scal-c$c.yaml
done
cp tests/fixtures/adversary/host/redteam32/scaling-paper.md S.md
expect_exit 0 "$EVIDENT" paper S.md
expect_contains S.md "**(the spec loosens the problem's tolerance: see the notes)**"
[ "$(grep -c "loosens the problem's tolerance: see the notes" S.md)" = 2 ] || fail "both rows say it"
expect_match S.md "^- \`host-redteam32-scal-c128\`, note: the spec loosens the problem's tolerance: "
expect_match S.md "^- \`host-redteam32-scal-c256\`, note: the spec loosens the problem's tolerance: "
# the precision note on const_out's error against the baseline's comes with it
expect_match S.md "^- \`host-redteam32-scal-c128\`, note: .*const_out"
expect_exit 0 "$EVIDENT" paper --check S.md
exit 0
