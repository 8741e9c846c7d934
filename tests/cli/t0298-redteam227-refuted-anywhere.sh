# t0298 - red team 227 (tests/fixtures/adversary/host/redteam227/
# README.md, rows 3 and 4): a code the judge refuted once promotes
# nothing (eval's candidate_refuted), but the check read batch records
# only: the cheat's author killed his eval session as its wrong run
# landed (runs, no batch record) and the next evals promoted it 3 of 3;
# and the audit had no refuted rule at all (a `faster` claim of the code
# on a batch where it ran right was supported 3 of 3).  Now eval, a
# search's confirmation and the audit read every run of the code's exact
# object in the store (code_identity.c code_refuted_run).  nicewrong.c
# is wrong at nice 19 only, right and fast otherwise.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ "$(nice)" -lt 19 ] || skip "the test runs at nice 19, where nicewrong.c is always wrong"
mkrepo
SPEC=tests/fixtures/specs/host-redteam227-nicewrong.yaml
S="$EVIDENT_STORE"
mkdir -p "$S/runs"
echo '{"kernel": "tests/fixtures/adversary/host/redteam227/nicewrong.c"}' > in.json
# the author's session at nice 19, killed at its first wrong run record
nice -n 19 "$EVIDENT" eval --no-progress $SPEC < in.json > e19.json 2> e19.err &
pid=$!
killed=0
for i in $(seq 3000); do
	kill -0 $pid 2>/dev/null || break
	if grep -lq '"outcome": "wrong_output"' "$S"/runs/*.json 2>/dev/null; then
		kill -KILL $pid && killed=1
		break
	fi
	sleep 0.02
done
wait $pid
[ $killed = 1 ] || { cat e19.err; fail "the nice-19 eval wrote no wrong_output run (or ran past 60 s)"; }
ls "$S"/runs/*-batch.json >/dev/null 2>&1 && skip "the killed session's batch record landed before the kill: no try without one to test"
# the same code at the runner's nice: right, faster, and held
"$EVIDENT" eval --no-progress $SPEC < in.json > a1.json 2> a1.err || true
python3 -S - a1.json > said <<'P' || fail "reading the answer: $(cat said; cat a1.err)"
import json, sys
a = json.load(open(sys.argv[1]))
r = a.get("candidate_refuted") or {}
print(a.get("promoted"), r.get("outcome"))
print(a.get("decision"))
P
read -r promoted outcome < said
expect_eq "$promoted" False "eval of a code refuted in a killed session: $(sed -n 2p said)"
expect_eq "$outcome" wrong_output "candidate_refuted: $(sed -n 2p said)"
# the audit: a faster claim on a batch where it ran right
expect_exit 0 "$EVIDENT" run --no-progress $SPEC
b=$(sed -n 's/.*and batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$b" ] || fail "no batch named: $(cat "$TEST_TMP/out")"
echo "<!-- claim: faster experiment=rt227-nicewrong a=nw b=inc run=$b -->" > claim.md
"$EVIDENT" audit --no-untraced claim.md > au.out 2>&1
expect_not_contains au.out "claim.md:1: supported"
# the refuted run is the audit's first word, before the reruns' (CI of
# 2026-12-07: "only 1 of 3 batches give faster" hid it, sanitized)
if grep -qE "^nw .* faster$" "$TEST_TMP/out"; then
	expect_match au.out "claim.md:1: [a-z]+: faster nw vs inc: .*is a code whose output the judge refuted \(wrong_output, run "
fi
exit 0
