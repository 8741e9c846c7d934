# t0322 - red team 273 (host/redteam273/README.md, rows 1-5): eval, a
# search and the audit found a refuted run of a candidate's code only by
# its exact object (code_identity.c code_refuted_run read code_same_built),
# so an echo-neutral twin (twinbad.c P=1 at SALT=2, SALT only echoed) or a
# loaded-image copy (idbad.c with a same-length `#ident` tag, sent as
# eval `source`) of a code refuted at S=32 was promoted at S=64 (3 of 3
# each) and its faster claim supported (3 of 3), while `validated` called
# the refuted runs the same code; and a refuted code's own median_us and
# GFLOP/s were supported as values (5 of 5: audit_value.c applied "a code
# refuted once backs no speed" to comparison statistics only).  Now the
# refuted run is matched by the program (code_same_program, as
# `validated`), and a time or rate value of such a code is contradicted;
# the reference's own median stays a plain read.  About 25 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
R=tests/fixtures/adversary/host/redteam273
# row 1: the echo-neutral twin (candidate_refuted is set whatever the verdict)
sh $R/twin.sh "$TEST_TMP/t" T > twin.out 2>&1
cat twin.out
expect_match twin.out "side: ref ok bad wrong_output"
expect_match twin.out "candidate_refuted=\{\"batch\": \"[^\"]*rt273-other[^\"]*\", \"outcome\": \"wrong_output\"\}"
expect_not_contains twin.out "promoted=True"
# row 5 (and row 3 where the batch said faster): the twin's time and rate,
# where the session's own runs were ok: the extra shape is drawn per run
# from [1, 64] for S, and a draw of S=32 refutes the twin in the session
# itself (flaky; CI, 2026-12-07: 1 in about 20 evals of 3 runs), which
# leaves no time or rate of the candidate to claim
if grep -q "outcome=ok " twin.out; then
sh $R/value.sh "$TEST_TMP/t" > value.out 2>&1
cat value.out
expect_match value.out "contradicted: value rt273-eval/cand-[0-9a-f]* median_us=.*is a code whose output the judge refuted .*echo-neutral twin of the refuted run's object"
expect_match value.out "contradicted: value rt273-eval/cand-[0-9a-f]* gflops=.*is a code whose output the judge refuted"
expect_match value.out "supported: value rt273-eval/ref median_us="
if grep -q "speedup=.*faster;" value.out; then
	expect_match value.out "contradicted: value rt273-eval/cand-[0-9a-f]* speedup=.*the side it says is faster, is a code whose output the judge refuted"
fi
else
	expect_match twin.out "promoted=False outcome=(flaky|wrong_output) "
	echo "note: the session's extra shape drew S=32 and refuted the twin itself: row 5 not reached"
fi
# row 4: the loaded-image copy as eval `source`
sh $R/ident.sh "$TEST_TMP/i" T > ident.out 2>&1
cat ident.out
expect_match ident.out "candidate_refuted=\{\"batch\": \"[^\"]*rt273-oid[^\"]*\", \"outcome\": \"wrong_output\"\}"
expect_not_contains ident.out "promoted=True"
expect_not_contains ident.out "supported: faster idcopy"
exit 0
