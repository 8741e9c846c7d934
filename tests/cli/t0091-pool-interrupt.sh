# SIGTERM to the runner of a pool (--gpus 2) reaches its slots: each
# records its job in flight as aborted (naming the signal), the parent
# waits for them, gathers what finished and exits 130; no slot or worker
# outlives it, and the store verifies.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "a signal at a timed point; a pool of a slot per CPU"
mkrepo
sed 's/SLEEP_US: 36000/SLEEP_US: 300000/' tests/fixtures/specs/pool.yaml >experiments/pool.yaml
"$EVIDENT" run --no-progress --gpus 2 experiments/pool.yaml >out.txt 2>err.txt &
pid=$!
for i in $(seq 600); do
	[ "$(ls artifacts/runs 2>/dev/null | wc -l)" -ge 4 ] && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat out.txt err.txt; fail "exit $rc, expected 130"; }
expect_contains out.txt "records: 6 variant(s) and batch"
python3 - >check.out 2>&1 <<'PY' || { cat check.out; fail "records after SIGTERM"; }
import json, os
n = aborted = 0
for f in os.listdir('artifacts/runs'):
    m = json.load(open('artifacts/runs/' + f))
    if m.get('kind') == 'batch':
        assert m['interrupted'] is True
        continue
    n += 1
    if m['outcome'] == 'aborted':
        aborted += 1
        assert m['reason'].startswith('interrupted by SIGTERM'), m['reason']
assert 0 < n < 24, n
assert aborted >= 1, 'no job in flight was recorded aborted'
PY
sleep 0.5
# slots and workers run in the repository, as this shell does
leftover=
for p in /proc/[0-9]*; do
	q=${p#/proc/}
	[ "$q" = $$ ] || [ "$q" = "$BASHPID" ] && continue
	[ "$(readlink "$p/cwd" 2>/dev/null)" = "$PWD" ] && leftover="$leftover $q:$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)"
done
[ -z "$leftover" ] || fail "processes outlived the runner:$leftover"
expect_exit 0 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "intact"
