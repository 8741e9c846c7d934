# t0266: `evident show` shows a kernel's words, on the lines show makes.
# Red team 162: a failed init()'s message (the record's reason) and a
# kernel's echo string kept their newlines, and `show` printed them as
# lines of its own: initspoof's message put an "ok (expected)" note, a
# "3.120x faster" comparison and an "ok" table row under the batch's "by
# variant" and the run's outcome; termspoof's echo string a forged
# "outcome    ok" line.  Every string show's formats take is one line now
# (cmd_show.c out(): newlines and tabs as \x0a, \x09).  And the timed
# checks' range is theirs ("samples 0 .. -1" before: the last check of
# all was another phase's).
. "$REPO/tests/cli/lib.sh"
mkrepo git adversary/host/redteam162/initspoof.c adversary/host/redteam162/termspoof.c \
	specs/host-redteam162-initspoof.yaml specs/host-redteam162-termspoof.yaml
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam162-initspoof.yaml
B=$(ls artifacts/runs | grep -- '-batch.json$')
R=$(jget "artifacts/runs/$B" "[v['run_id'] for v in d['variants'] if v['variant'] == 'initspoof'][0]")
for id in "$B" "$R"; do
	id=${id%.json}
	expect_exit 0 "$EVIDENT" show "$id"
	if grep -E '^  - initspoof: ok|^  - initspoof vs naive|^initspoof +ok' "$TEST_TMP/out"; then
		fail "show $id printed the kernel's forged lines as its own"
	fi
	expect_contains "$TEST_TMP/out" 'init: x\x0a  - initspoof: ok (expected)\x0a'
done
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam162-termspoof.yaml
B=$(ls -t artifacts/runs | grep -- '-batch.json$' | head -1)
R=$(jget "artifacts/runs/$B" "[v['run_id'] for v in d['variants'] if v['variant'] == 'termspoof'][0]")
expect_exit 0 "$EVIDENT" show "$R"
[ "$(grep -c '^outcome ' "$TEST_TMP/out")" = 1 ] || fail "show printed an outcome line of the kernel's: $(grep -n 'outcome' "$TEST_TMP/out")"
expect_contains "$TEST_TMP/out" "outcome    wrong_output"
exit 0
