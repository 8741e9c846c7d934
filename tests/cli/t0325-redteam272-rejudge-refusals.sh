# t0325 - red team 272 (host/redteam272/README.md): the re-judge asked
# questions no check of either build was held to.  xtol: a later build
# whose rule is 1e-2 at odd C (the extra shape's) cleared a cheat failing
# there at 1e-3 (validated supported 4 of 4): a shape check is weighed by
# the rule its run recorded (rejudge.c rule_of_check).  reftag: a later
# build whose fill is tagged by an ulp and whose box answers "too costly"
# to every re-judge cleared a failure through the fingerprints (supported
# 3 of 3): what the current build's box will not re-judge stands
# (gap_at b_refused, build_box_honest -2).  mask: a failing build bent in
# its checker only on uniform draws, past the eight worst failures it
# chose, refuted an honest code (contradicted 3 of 3): every failed check
# is held to its hashes (judged_as_it_computes).  About 100 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam272
# launder NAME SCRIPT MODE VARIANT EXPERIMENT: one store through a red
# team 272 script; where VARIANT failed at nice 19, validated must be
# contradicted under the later build and eval must not promote it
launder() {
	K=1 sh $D/$2 "$TEST_TMP/$1" $3 > $1.out 2>&1
	cat $1.out
	cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "$2 left problems/softmax.c edited"
	if grep -q "^nice 19 batch: $4 wrong_output" $1.out; then
		expect_match $1.out "claim.md:2: contradicted: validated $5/$4: "
		grep -q "^eval: PROMOTED" $1.out && fail "eval promoted $4 ($1)"
	else
		echo "$4 was not wrong at nice 19 here: $1 not judged"
	fi
}
launder xtol xrule.sh xtol xnw rt272-xrule
launder reftag reflaunder.sh reftag nw rt227-nicewrong
EVALS=0 sh $D/mask8.sh "$TEST_TMP/mask" mask > mask.out 2>&1
cat mask.out
cmp -s problems/softmax.c "$REPO/problems/softmax.c" || fail "mask8.sh left problems/softmax.c edited"
expect_match mask.out "^side batch \(mask\): chal wrong_output"
# (mask8.sh's bent build adds 1 wherever an input passes 10, which only
# `large` and `peaked` did until red team 293's softmax offsets (uniform
# rows up to about 77, 2026-12-07): where a uniform check with an offset
# row now carries that +1, the fixture's premise is gone and its
# contradiction says nothing of the cap; CI of a3836bee5, sanitized)
if grep -q "claim.md:1: contradicted: validated rt272-mask8/chal: .*(uniform inputs): max |err| 1," mask.out; then
	echo "note: the bent build's +1 reached a uniform check (softmax's offsets): mask row not judged"
	exit 0
fi
expect_match mask.out "claim.md:1: supported: validated rt272-mask8/chal: "
exit 0
