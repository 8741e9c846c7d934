# t0316 - red team 265 (host/redteam265/README.md): eval and a search held
# a candidate whose code the judge refuted only at the same shape
# (code_identity.c code_refuted_run read same_dims), while `validated`
# reads every shape: shapebad.c, wrong at S=32 and right at S=64 and its
# extra shape, was promoted at S=64 by eval (2.83-2.88x, candidate_refuted
# null) and by a search (confirmed in fresh processes), 3 of 3 each, the
# same binary refuted and promoted.  Now a code refuted at any shape of
# the problem and dtype promotes nothing (its build's failures weighed by
# code_other_build_counts as before).  Without the side run, both promote
# (the controls).  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
D=tests/fixtures/specs
K=tests/fixtures/adversary/host/redteam265
evalj() { # evalj STORE: eval of shapebad.c at S=64, its answer line
	echo "{\"kernel\": \"$K/shapebad.c\"}" | "$EVIDENT" eval --store "$1" --no-progress $D/host-redteam265-eval.yaml 2>/dev/null |
		python3 -c 'import json, sys
d = json.loads(sys.stdin.readline())
print("promoted=%s refuted=%s" % (d.get("promoted"), (d.get("candidate_refuted") or {}).get("outcome")))'
}
"$EVIDENT" run --no-progress $D/host-redteam265-other.yaml --store "$TEST_TMP/e" > side.out 2>&1
expect_match side.out "^bad +wrong_output"
evalj "$TEST_TMP/e" > e.out
cat e.out
expect_match e.out "^promoted=False refuted=wrong_output$"
# the control: no refuted run in the store, promoted (where this machine
# reads it faster: the precondition)
evalj "$TEST_TMP/e0" > e0.out
cat e0.out
grep -q "^promoted=True" e0.out || skip "eval did not promote shapebad.c in a store without the side run here: $(cat e0.out)"
# the search
"$EVIDENT" run --no-progress $D/host-redteam265-pother.yaml --store "$TEST_TMP/s" > pside.out 2>&1
grep -q "wrong_output" pside.out || { cat pside.out; fail "the side run did not refute pshape.c P=1 at S=96"; }
"$EVIDENT" run --no-progress $D/host-redteam265-search.yaml --store "$TEST_TMP/s" > search.out 2>&1
python3 -c 'import glob, json, sys
s = json.load(open(sorted(glob.glob(sys.argv[1] + "/runs/*-search.json"))[0]))
print(s["generations"][0]["why"])' "$TEST_TMP/s" > why.out || fail "no search record"
cat why.out
grep -q "^start kept: no candidate was faster" why.out && skip "the search did not read g0c0 faster here: $(cat why.out)"
# the refuted code is named once the confirmation itself reads faster: a
# confirmation inconclusive under this machine's load keeps the start
# for that reason first (CI 2026-12-06, beside spinning threads)
grep -q "wrong_output" why.out || ! grep -q "^start kept: not confirmed: the confirmation batch .* said inconclusive" why.out ||
	skip "the search's confirmation read inconclusive here: $(cat why.out)"
expect_match why.out "^start kept: not confirmed: .*its code was wrong_output in an earlier batch or try"
exit 0
