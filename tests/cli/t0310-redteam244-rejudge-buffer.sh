# t0310 - red team 244 row 1 (host/redteam244/README.md, rjlaunder.sh): a
# current build of the problem plug-in whose reference tells the
# re-judge's box from a check and bends only there cleared a cheat's
# failure under the build before: the box (problem_box.c judge_values)
# ran the reference on a second buffer holding the bits its own fill()
# had just written, which no check does, and the edited reference doubled
# its outputs there: validated and faster supported and eval promoted 3
# of 3.  Now the reference runs on the very buffers its fill() wrote,
# another build's draw copied into them, as in a check: contradicted,
# contradicted, held 4 of 4 (with red team 238's one-ulp nudge, FP=1, that
# pools the builds apart for eval).  And a switch on the process instead
# (argv names __problem: MODE argv, the reference doubled in every box but
# the checker's) laundered the same way (validated and faster supported,
# 1 of 1); now the current build must compute in its box what its checker
# recorded on one of its own runs' checks (rejudge.c build_box_honest), or
# the failures stand.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
FP=1 sh tests/fixtures/adversary/host/redteam244/rjlaunder.sh "$TEST_TMP/s" detect > rj.out 2>&1 ||
	{ cat rj.out; fail "rjlaunder.sh failed"; }
cat rj.out
grep -q "^nice 19 batch: nw wrong_output" rj.out || skip "nicewrong was not wrong at nice 19 here: nothing to launder"
grep -q "edit failed" rj.out && fail "the plug-in edit failed"
expect_match rj.out "claim.md:2: contradicted: validated rt227-nicewrong/nw: "
grep -q "claim.md:1: supported" rj.out && fail "faster supported for a code whose failure the bent build cleared"
grep -q "^eval: PROMOTED" rj.out && fail "eval promoted the cheat"
expect_match rj.out "^eval: held "
FP=1 sh tests/fixtures/adversary/host/redteam244/rjlaunder.sh "$TEST_TMP/a" argv > argv.out 2>&1 ||
	{ cat argv.out; fail "rjlaunder.sh argv failed"; }
cat argv.out
grep -q "^nice 19 batch: nw wrong_output" argv.out || skip "nicewrong was not wrong at nice 19 here (argv): nothing to launder"
grep -q "edit failed" argv.out && fail "the plug-in edit failed (argv)"
expect_match argv.out "claim.md:2: contradicted: validated rt227-nicewrong/nw: "
grep -q "claim.md:1: supported" argv.out && fail "faster supported for a code whose failure the argv-bent build cleared"
grep -q "^eval: PROMOTED" argv.out && fail "eval promoted the cheat (argv)"
exit 0
