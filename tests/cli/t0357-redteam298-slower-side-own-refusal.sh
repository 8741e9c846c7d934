# t0357 - red team 298 row 1 (host/redteam298/README.md): the fix of red
# team 296 row 2 holds a faster side whose init refused the extra shape
# unless the slower side's code refused too, and it found the slower
# side's refusal by its sources and parameters under any flags.  One run
# of the repository's naive.c, at the reference's parameters, under one
# more -D that wraps its init to refuse every C but 65536
# (host-redteam298-launder*.yaml), made the reference read "specialised":
# a refusing candidate was promoted by eval 2 of 2 and its `faster` claim
# read supported 2 of 2.  Now the slower side's refusal counts only where
# its own program refused (code_identity.c code_specialised_held): the
# laundered run changes nothing, the faster side is still held, naming
# its refusal.  About 30 s, up to 2 min under load (each part is tried
# again where the load left no faster verdict).
. "$REPO/tests/cli/lib.sh"
runs_alone "compares timings: the verdicts the rule holds must be faster first"
mkrepo
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
K=tests/fixtures/adversary/host/redteam296/lnshift.c
HELD="is specialised: its init refused the extra shape \(lnshift is tuned for C >= 8192"
# the audit: t0352's batch (spec refuses every C under 8192), then the
# laundered reference run, in a fresh store up to 4 times until spec
# reads faster (the rule is weighed past that verdict)
for try in 1 2 3 4; do
	S=$TEST_TMP/store$try
	"$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/host-t0352-spec.yaml > run.out 2>&1
	cat run.out
	expect_match run.out "^spec +ok "
	grep -Eq "^spec +ok .*faster *$" run.out && break
done
"$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/host-redteam298-launder0.yaml > launder.out 2>&1
cat launder.out
expect_match launder.out "^ref +ok "
expect_match launder.out "specialised"
cat > claim.md <<CLAIMS
# t0357's claim
spec is faster than naive. <!-- claim: faster experiment=host-t0352-spec a=spec b=naive -->
CLAIMS
"$EVIDENT" audit --store "$S" claim.md > audit.out 2>&1
cat audit.out
expect_not_contains audit.out "claim.md:2: supported"
if grep -Eq "^spec +ok .*faster *$" run.out; then
	expect_match audit.out "claim.md:2: contradicted: .*but spec, the side it says is faster, $HELD"
	grep -q "both sides are specialised" audit.out && fail "the laundered run of naive's sources excused spec's refusal"
else
	echo "note: spec was not faster in this batch (load): the audit's rule not reached"
fi
# eval: the laundered run first, then the candidate refusing every C
# under the spec's against the reference, up to 4 fresh stores until its
# batch reads faster
jq_line() { python3 -S -c "import json,sys; d=json.loads(open(sys.argv[1]).readline()); print(eval(sys.argv[2]))" "$1" "$2"; }
FAST='promoted: faster, '
for try in 1 2 3 4; do
	E=$TEST_TMP/eval$try
	"$EVIDENT" run --no-progress --store "$E" tests/fixtures/specs/host-redteam298-launder.yaml > elaunder.out 2>&1
	expect_match elaunder.out "^ref +ok "
	printf '{"kernel":"%s","params":{"SHIFT":0,"RSQRT":0,"MINC":8192},"name":"spec"}\n' "$K" |
		"$EVIDENT" eval --store "$E" tests/fixtures/specs/host-t0352-eval.yaml > eval.out 2> eval.err
	cat eval.err eval.out
	grep -qF "$FAST" eval.out && break
done
expect_eq "$(jq_line eval.out 'd["promoted"]')" False "eval promoted a candidate checked at the spec's shape only"
expect_contains eval.out '"candidate_specialised":{"batch"'
if grep -qF "$FAST" eval.out; then
	expect_contains eval.out '"decision":"not promoted: specialised: its init refused the extra shape (lnshift is tuned for C >= 8192'
	expect_eq "$(jq_line eval.out 'd["candidate_specialised"]["held"]')" True "candidate_specialised.held"
else
	echo "note: no faster batch in 4 eval sessions (load): the rule not reached"
fi
exit 0
