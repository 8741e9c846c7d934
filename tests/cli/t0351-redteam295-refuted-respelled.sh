# t0351 - red team 295 rows 1 and 1b (host/redteam295/README.md): the
# refuted rule's source identity (code_identity.c code_id.src, red team
# 294 row 3's fix) kept the command line's macro arguments and the
# parameters as written, so red team 273's twinbad.c P=1 SALT=1, refuted
# at S=32, rebuilt with an unused -DRT295_UNUSED, or with P spelled "01"
# (-DP=01: still 1), read `faster` supported 3 of 3 and eval promoted it
# 3 of 3.  Now src is the sources and the parameters by value, no
# argument of the command line: both are contradicted, naming the refuted
# run.  About 25 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
D=tests/fixtures/adversary/host/redteam295
for row in macro octal; do
	sh $D/$row.sh "$TEST_TMP/$row" T > $row.out 2>&1
	cat $row.out
	expect_match $row.out "^bad +wrong_output"
	expect_not_contains $row.out "supported: faster bad vs ref"
	# (bad is flaky when the batch's extra shape draws S=32: no speed to claim)
	if grep -Eq "^bad +ok .*faster *$" $row.out; then
		expect_match $row.out "contradicted: faster bad vs ref: .*is a code whose output the judge refuted \(wrong_output, .*rt273-other.*; it is the same sources and parameters"
	else
		echo "note: $row: bad was not faster here (flaky at an extra shape, or load): the rule's reason not reached"
	fi
done
exit 0
