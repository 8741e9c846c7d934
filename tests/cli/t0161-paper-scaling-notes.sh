# Red team 32 (tests/fixtures/adversary/host/redteam32/README.md): an
# evident:scaling block showed a cheat's rate with none of the notes its
# batch records.  Two shapes of softmax whose spec loosens the problem's
# tolerance to 1 (its own: 1e-5), where const_out writes 1/C everywhere
# and was ok by the spec: the block printed const_out's GFLOP/s as any
# other, and `paper --check` and `audit --strict` passed it (since red
# team 304 softmax's focus refuses it whatever the spec).  Now every
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
# const_out's cells: refused since softmax judges entries alone (red team
# 304; a spec does not loosen them), so no rate is shown for it
expect_match S.md "^\| \`host-redteam32-scal-c128\` \|.*\| \*\*wrong_output\*\* \|"
expect_exit 0 "$EVIDENT" paper --check S.md
# Red team 36: a column joins its cells by variant name alone; `opt` is
# naive.c at C 256 and a kernel doing twice the work at C 512, and at C 256
# `z` and `opt` are one binary.  The block now says both.  Red teams 36 and
# 37 run once a variant (--repeats 1; their specs say 3): what is checked
# is which code each cell ran, not a verdict.
for c in 256 512; do
	"$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/host-redteam36-scale-c$c.yaml > "$TEST_TMP/r36" 2>&1 ||
		{ cat "$TEST_TMP/r36"; fail "host-redteam36-scale-c$c"; }
done
printf '# t\n<!-- evident:scaling experiments=host-redteam36-scale-c256,host-redteam36-scale-c512 runs=latest x=C panel=R -->\n<!-- /evident:scaling -->\n' > T.md
expect_exit 0 "$EVIDENT" paper T.md
expect_contains T.md '**Warning: column `opt` is not one kernel**: `kernels/softmax/naive.c` in `host-redteam36-scale-c256`, `tests/fixtures/adversary/host/redteam36/twice.c` in `host-redteam36-scale-c512`'
expect_contains T.md '**Note: `z` and `opt` ran the same code in `host-redteam36-scale-c256`**'
[ "$(grep -c "ran the same code" T.md)" = 1 ] || fail "only the C 256 row has one code twice"
# Red team 37: under one path a column's code changed by a spec flag
# (flag_twice.c with -DRT37_TWICE at C 512), and a byte-identical copy of
# the baseline under another name (cp): both by the code's content now.
for c in 256 512; do
	"$EVIDENT" run --no-progress --repeats 1 tests/fixtures/specs/host-redteam37-scale-c$c.yaml > "$TEST_TMP/r37" 2>&1 ||
		{ cat "$TEST_TMP/r37"; fail "host-redteam37-scale-c$c"; }
done
printf '# t\n<!-- evident:scaling experiments=host-redteam37-scale-c256,host-redteam37-scale-c512 runs=latest x=C panel=R -->\n<!-- /evident:scaling -->\n' > U.md
expect_exit 0 "$EVIDENT" paper U.md
expect_contains U.md 'Note: column `opt` ran other code in `host-redteam37-scale-c512` than in `host-redteam37-scale-c256`'
expect_contains U.md '**Note: `z` and `cp` ran the same code in `host-redteam37-scale-c256`**'
expect_contains U.md '**Note: `z` and `cp` ran the same code in `host-redteam37-scale-c512`**'
exit 0
