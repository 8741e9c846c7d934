# t0269: a host timed sample's output scramble is keyed by the parent,
# at the sample, never by anything the worker can read (red team 170,
# tests/fixtures/adversary/host/redteam170/README.md).  The job's
# scramble_seed, in the job file the worker reads, keyed the bits the
# parent wrote into every timed sample's outputs before the go, and
# scrsniff, which reads its outputs before writing them, named every
# timed sample by them (47 of 47, in order, 3 of 3 runs).  It passed no
# check by it (the scramble only marks what is left unwritten), but
# nothing the worker reads may predict a sample.  Now scrsniff names its
# correctness launches (keyed by the job, which the checker's own seeds
# need) and none of its timed samples; the run is still judged whole.
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 --only scrsniff tests/fixtures/specs/host-redteam170-scrsniff.yaml
expect_match "$TEST_TMP/out" '^scrsniff +ok '
R=$(ls artifacts/runs | grep -v -- '-batch.json$' | while read -r f; do
	grep -q '"variant": "scrsniff"' "artifacts/runs/$f" && echo "${f%.json}"
done | head -1)
[ -n "$R" ] || fail "no record of scrsniff"
expect_exit 0 "$EVIDENT" show --log "$R"
last=$(grep 'rt170-scrsniff: launches' "$TEST_TMP/out" | sed -n '/seed launches 2/p' | tail -1)
[ -n "$last" ] || fail "scrsniff's log has no tally past its correctness launches (the sniffer did not see them)"
echo "$last" | grep -q 'timed-sample g named 0 ' || fail "scrsniff named timed samples by their scramble: $last"
