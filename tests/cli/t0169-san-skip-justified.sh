# tests/cli/san-skip.txt, the CLI tests make test's sanitized pass skips,
# lists only tests its evidence file's set cover skips (scripts/san-cover.py
# --check): each with the reason written there, "lines covered by" tests
# that exist and run in the sanitized pass.  A test added to the list by
# hand, a kept test listed, or a reason naming a skipped test fails, so a
# new CLI test runs sanitized until `make san-cover` remeasures.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "checks tests/cli/san-skip.txt, runs no evident"
chk=$REPO/scripts/san-cover.py
skipf=$REPO/tests/cli/san-skip.txt
expect_exit 0 "$chk" --check
grep -q '^t[0-9]' "$skipf" || fail "san-skip.txt lists no test"

# the checker sees each way the list can go wrong
cp "$skipf" l.txt
first=$(grep -m1 '^t[0-9]' l.txt)
name=${first%% *}
# a test listed by hand: the evidence file does not skip it
new=$(cd "$REPO/tests/cli" && for t in t[0-9]*.sh; do n=${t%.sh}; grep -q "^$n " "$skipf" || grep -qE '^(plain_pass(_only)?|slurm_once)( |$)' "$t" || { echo "$n"; break; }; done)
kept=${new%%-*}
[ -n "$new" ] || fail "no test outside san-skip.txt"
{ cat "$skipf"; echo "$new lines covered by the unit tests"; } >l.txt
expect_exit 1 "$chk" --check l.txt
expect_contains "$TEST_TMP/err" "l.txt:$(wc -l <l.txt): '$new' is not a test"
expect_contains "$TEST_TMP/err" "skips: listed by hand? (run make san-cover)"
# a line without the reason
grep -v "^$name " "$skipf" >l.txt && echo "$name" >>l.txt
expect_exit 1 "$chk" --check l.txt
expect_contains "$TEST_TMP/err" "'$name' has no reason 'lines covered by tNNNN, ...'"
# a reason other than the evidence file's
grep -v "^$name " "$skipf" >l.txt && echo "$name lines covered by $kept" >>l.txt
expect_exit 1 "$chk" --check l.txt
expect_contains "$TEST_TMP/err" "'$name' has the reason 'lines covered by $kept', "
# a reason naming a test the pass skips too
other=$(grep '^t[0-9]' "$skipf" | sed -n 2p | cut -d' ' -f1)
grep -v "^$name " "$skipf" >l.txt && echo "$name lines covered by ${other%%-*}" >>l.txt
expect_exit 1 "$chk" --check l.txt
expect_contains "$TEST_TMP/err" "'$name' is covered by $other, which the sanitized pass skips too"
# a test the evidence file skips, taken out of the list, runs sanitized: fine
grep -v "^$name " "$skipf" >l.txt
expect_exit 0 "$chk" --check l.txt
# no evidence file
grep -v '^# evidence: ' "$skipf" >l.txt
expect_exit 1 "$chk" --check l.txt
expect_contains "$TEST_TMP/err" "no '# evidence: FILE' line (run make san-cover)"
