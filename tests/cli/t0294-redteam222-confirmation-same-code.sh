# t0294 - red team 222 (tests/fixtures/adversary/host/redteam222/
# README.md): eval's confirming round, and a search's confirmation, built
# the candidate again from its path, and nothing compared the code the
# two batches ran: a watcher that rewrote the file once the first round's
# marker named both codes had the second round time other code and
# promote it "confirmed" (3 of 3; a coin kernel slower on average
# promoted in 4 of 16 sessions, 0 of 16 alone; a search "confirmed
# 1.278x" by a batch of other code).  Now each side's code (object, load
# image, libraries) must be the same in both batches, else no promotion
# and the answer says which side changed (eval.c round_code_keys,
# search.c cand_same_code).
. "$REPO/tests/cli/lib.sh"
runs_alone "a fast candidate must win its first round against a 2 ms reference"
mkrepo
D=tests/fixtures/adversary/host/redteam222
# the candidate's file, a new inode beside the fixtures (they include
# ../../../host/fixture_common.h; the fixtures are hard links shared
# with later tests: never written in place, only replaced)
cp $D/swap_fast.c $D/cand.c
# watch STORE FILE SRC: once a begun marker of STORE names its code, FILE
# becomes a copy of SRC (a new inode)
watch() {
	while :; do
		if grep -ls '"code"' "$1"/pending/*.json >/dev/null 2>&1; then
			rm -f "$2" && cp "$3" "$2"
			return 0
		fi
		sleep 0.02
	done
}
mkdir -p st
watch st $D/cand.c $D/swap_other.c &
w=$!
echo '{"kernel": "'$D'/cand.c"}' | EVIDENT_STORE=$PWD/st "$EVIDENT" eval --no-progress --repeats 5 \
	tests/fixtures/specs/host-redteam222-swap.yaml > answer.json 2> eval.err
rc=$?
kill $w 2>/dev/null
wait $w 2>/dev/null
[ $rc -le 1 ] || fail "eval exited $rc: $(tail -3 eval.err)"
python3 -S - answer.json > said <<'P' || fail "reading the answer: $(cat said)"
import json, sys
a = json.load(open(sys.argv[1]))
print(a.get("confirms") is not None, a.get("promoted"), a.get("changed_between_batches"))
print(a["decision"])
P
read -r confirms promoted changed < said
[ "$confirms" = True ] || skip "the first round did not promote the fast candidate here, nothing to confirm: $(sed -n 2p said)"
[ "$promoted" = False ] || fail "a confirmation of other code promoted: $(sed -n 2p said)"
[ "$changed" = candidate ] || fail "the answer does not say the candidate changed: $(cat said)"
expect_contains said "its file changed between the two batches"
# a search's confirmation, the same way: tune.c's P=1 fast in the
# generation's batch, slower in the confirmation's
rm -f $D/tune.c && cp $D/tune_first.c $D/tune.c
mkdir -p sq
watch sq $D/tune.c $D/tune_other.c &
w=$!
EVIDENT_STORE=$PWD/sq "$EVIDENT" run --no-progress --repeats 5 tests/fixtures/specs/host-redteam222-search.yaml > search.out 2>&1
rc=$?
kill $w 2>/dev/null
wait $w 2>/dev/null
[ $rc -le 1 ] || fail "the search exited $rc: $(tail -3 search.out)"
why=$(python3 -c 'import glob, json, sys
s = json.load(open(sorted(glob.glob(sys.argv[1] + "/runs/*-search.json"))[0]))
print(s["generations"][0]["why"])' sq) || fail "no search record"
case $why in
*"confirming"* | *"confirmed in fresh processes"*) fail "a search confirmed a promotion by other code: $why" ;;
*"kept: not confirmed"*"its file changed between the two batches"*) ;;
*"kept: no candidate was faster"*) skip "the generation's batch did not read g0c0 faster here: $why" ;;
*) fail "the search's confirmation does not say the code changed: $why" ;;
esac
