# t0352 - red team 296 row 2 (host/redteam296/README.md): red team 289's
# fix judges the extra shape at its drawn shape, and an `init` that
# refuses the drawn shape was recorded as *specialised* with the run
# `ok`: only `validated` read it, so lnshift.c refusing every C but the
# spec's (an rsqrtss layernorm outside the fp32 rule at small C) read
# `faster` supported 3 of 3 and eval promoted it 2 of 3.  Now the side
# said to be faster, refusing where the other side's code never did, is
# held by the audit's verdicts (faster, slower, a value claim on the
# speedup), by eval and by a search's confirmation, each naming the
# refusal (code_identity.c code_specialised_held).  The same code taking
# every shape (all) is not held by it.  About 20 s, up to 80 s under
# load (each part is tried again where the load left no faster verdict).
. "$REPO/tests/cli/lib.sh"
runs_alone "compares timings: the verdicts the rule holds must be faster first"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
K=tests/fixtures/adversary/host/redteam296/lnshift.c
# the batch, in a fresh store up to 4 times until spec reads faster (a
# verdict the load can make inconclusive; the rule is reached only past it)
for try in 1 2 3 4; do
	S=$TEST_TMP/store$try
	"$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/host-t0352-spec.yaml > run.out 2>&1
	cat run.out
	expect_match run.out "^spec +ok "
	expect_match run.out "^all +ok "
	grep -Eq "^spec +ok .*faster *$" run.out && break
done
# spec's speedup as the batch's table has it, for the value claim
SP=$(grep -E "^spec +ok " run.out | grep -oE "[0-9]+\.[0-9]+x \[" | head -1 | cut -d x -f 1)
cat > claim.md <<CLAIMS
# t0352's claims
spec is faster than naive. <!-- claim: faster experiment=host-t0352-spec a=spec b=naive -->
all is faster than naive. <!-- claim: faster experiment=host-t0352-spec a=all b=naive -->
naive is slower than spec. <!-- claim: slower experiment=host-t0352-spec a=naive b=spec -->
spec's speedup. <!-- claim: value experiment=host-t0352-spec variant=spec stat=speedup value=${SP}x -->
spec passes every check. <!-- claim: validated experiment=host-t0352-spec variant=spec -->
CLAIMS
"$EVIDENT" audit --store "$S" claim.md > audit.out 2>&1
cat audit.out
# validated read the refusal before the fix too
expect_match audit.out "claim.md:6: contradicted: validated host-t0352-spec/spec: .*extra shape: specialised \(lnshift is tuned for C >= 8192"
if grep -Eq "^spec +ok .*faster *$" run.out; then
	for n in 2 4 5; do
		expect_match audit.out "claim.md:$n: contradicted: .*but spec, the side it says is faster, is specialised: its init refused the extra shape \(lnshift is tuned for C >= 8192 .*checked at the spec's shape only, where naive was checked at every shape drawn"
	done
else
	echo "note: spec was not faster in this batch (load): the audit's rule not reached"
fi
grep "claim.md:3:" audit.out | grep -q "is specialised" && fail "all, which takes every shape, was held as specialised"
# eval: the candidate refusing every C under the spec's against naive.c,
# a fresh store up to 4 times until its batch reads faster (the rule is
# weighed past that verdict)
jq_line() { python3 -S -c "import json,sys; d=json.loads(open(sys.argv[1]).readline()); print(eval(sys.argv[2]))" "$1" "$2"; }
FAST='promoted: faster, '
for try in 1 2 3 4; do
	printf '{"kernel":"%s","params":{"SHIFT":0,"RSQRT":0,"MINC":8192},"name":"spec"}\n' "$K" |
		"$EVIDENT" eval --store "$TEST_TMP/eval$try" tests/fixtures/specs/host-t0352-eval.yaml > eval.out 2> eval.err
	cat eval.err eval.out
	grep -qF "$FAST" eval.out && break
done
expect_eq "$(jq_line eval.out 'd["promoted"]')" False "eval promoted a candidate checked at the spec's shape only"
if grep -qF "$FAST" eval.out; then
	expect_contains eval.out '"decision":"not promoted: specialised: its init refused the extra shape (lnshift is tuned for C >= 8192'
	expect_eq "$(jq_line eval.out 'd["candidate_specialised"]["held"]')" True "candidate_specialised.held"
else
	echo "note: no faster batch in 4 eval sessions (load): the rule not reached"
	# (the answer names the refusal whatever held it)
	expect_contains eval.out '"candidate_specialised":{"batch"'
fi
# a search from naive.c whose one mutation is that kernel, up to 4 times
# until its generation's batch and its confirmation both read faster (the
# confirmation's rule is weighed past that verdict)
CONF="said g0c0 faster than base|confirmed in fresh processes"
for try in 1 2 3 4; do
	"$EVIDENT" run --no-progress --store "$TEST_TMP/search$try" tests/fixtures/specs/host-t0352-search.yaml > search.out 2>&1
	cat search.out
	grep -Eq "$CONF" search.out && break
done
if grep -Eq "$CONF" search.out; then
	expect_match search.out "generation 0: best base, "
	expect_match search.out "base kept: not confirmed: .* said g0c0 faster than base, but specialised: its init refused the extra shape \(lnshift is tuned for C >= 8192"
else
	echo "note: no faster confirmation in 4 tries (load): the rule not reached"
	expect_match search.out "generation 0: best base, "
fi
exit 0
