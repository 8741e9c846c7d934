# t0347 - red team 294 row 3 and 3e (host/redteam294/README.md): the
# refuted rule (code_identity.c code_refuted_run) matched a code by its
# program (code_same_program: the code hash, which holds the compiler's
# command line, the binary, the echo-neutral object, the loaded image), so
# red team 273's twinbad.c P=1 SALT=1, refuted at S=32, rebuilt under a
# spec's `flags: [-O1]` was `faster` supported 4 of 4 and promoted by eval
# 4 of 4, while `validated` on the same batch read the refuted runs as
# "the kernel file at P=1,SALT=1" and was contradicted.  Now the same
# sources (headers included) at the same parameters are the same code for
# the refuted rule under any flags, and the answer says the refuted run
# was under other flags: the audit's faster, slower and value claims, eval
# and a search's confirmation.  The reference's own median stays a plain
# read.  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam294
SP=tests/fixtures/specs
HOW="built under other flags than the refuted run's object"

# row 3: the audit of the -O1 batch beside the refutation at S=32
sh $D/flag.sh "$TEST_TMP/f" T > flag.out 2>&1
cat flag.out
expect_match flag.out "^bad +wrong_output"
expect_match flag.out "contradicted: validated rt294-flag/bad: "
expect_not_contains flag.out "supported: faster bad vs ref"
# (bad is flaky when a repeat's extra shape draws S=32, about 3 in 64
# batches: then no speed of it to claim)
if grep -Eq "^bad +ok .*faster *$" flag.out; then
	expect_match flag.out "contradicted: faster bad vs ref: .*is a code whose output the judge refuted \(wrong_output, .*rt273-other.*; it is the same sources and parameters, $HOW"
	cm=$(grep -E '^bad +ok ' flag.out | awk '{print $3}')
	rm=$(grep -E '^ref +ok .*baseline' flag.out | awk '{print $3}')
	printf '# t0347 on %s\n\nref is slower than bad. <!-- claim: slower experiment=rt294-flag a=ref b=bad -->\n\nbad takes %s us. <!-- claim: value experiment=rt294-flag variant=bad stat=median_us value=%sus -->\n\nref takes %s us. <!-- claim: value experiment=rt294-flag variant=ref stat=median_us value=%sus -->\n' \
		"$TEST_TMP/f" "$cm" "$cm" "$rm" "$rm" > value.md
	bin/evident audit --store "$TEST_TMP/f" value.md > value.out 2>&1
	cat value.out
	expect_match value.out "value.md:3: contradicted: slower ref vs bad: .*is a code whose output the judge refuted .*$HOW"
	expect_match value.out "value.md:5: contradicted: value rt294-flag/bad median_us=.*is a code whose output the judge refuted .*$HOW"
	expect_match value.out "value.md:7: supported: value rt294-flag/ref median_us="
else
	echo "note: the -O1 batch drew S=32 at an extra shape and refuted bad itself: its speed claims not reached"
fi

# row 3e: eval of the candidate under the spec's -O1
sh $D/feval.sh "$TEST_TMP/e" T > feval.out 2>&1
cat feval.out
expect_not_contains feval.out "promoted True"
# (candidate_refuted is set whatever the decision weighs first, a busy
# machine's inconclusive too; the session's own extra shape may draw S=32
# and refute the candidate itself)
if grep -q 'candidate_refuted {"batch": "[^"]*rt273-other[^"]*", "outcome": "wrong_output"}' feval.out; then
	if grep -q "decision: not promoted: the candidate's code was wrong_output" feval.out; then
		expect_match feval.out "the candidate is the same sources and parameters, $HOW"
	fi
else
	expect_match feval.out "decision: .*(flaky|wrong_output)"
	echo "note: the session's own extra shape drew S=32: held by its own runs"
fi

# and a search's confirmation: start twinbad.c P=0 SALT=1 under -O1, the
# mutation P=1 the refuted source and parameters
mkdir -p "$TEST_TMP/s"
bin/evident run --no-progress $SP/host-redteam273-other.yaml --store "$TEST_TMP/s" > side.out 2>&1
expect_match side.out "^bad +wrong_output"
bin/evident run --no-progress $SP/host-redteam294-fsearch.yaml --store "$TEST_TMP/s" > search.out 2>&1
grep -E "generation 0: |^  g0c0 " search.out
expect_not_contains search.out "PROMOTED"
# (where the confirmation batch said faster: g0c0 may be flaky there too)
if grep -q "start kept: not confirmed: the confirmation batch of fresh processes ([^)]*) said g0c0 faster" search.out; then
	expect_match search.out "start kept: not confirmed: .*but its code was wrong_output in an earlier batch or try \([^;]*rt273-other[^;]*; it is the same sources and parameters, $HOW\)"
else
	echo "note: g0c0 was not faster in the generation's or the confirmation's batch (flaky at an extra shape)"
fi
exit 0
