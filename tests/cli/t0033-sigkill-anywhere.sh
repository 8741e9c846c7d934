# a runner killed with SIGKILL at many points leaves a store that verifies; the interrupted variant shows as aborted in ls
. "$REPO/tests/cli/lib.sh"
runs_alone "kills at timed points"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "warm-up run"
for delay in 0.05 0.1 0.2 0.3 0.5 0.7 0.9 1.2 1.6 2.2 3.0; do
	"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 &
	pid=$!
	sleep $delay
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	expect_exit 0 "$EVIDENT" verify
done
# at least one kill caught a variant in flight (since the problem's description and fill come from boxes, 2026-12-02, a sanitized run reaches its first variant later than 1.2 s: the later delays)
"$EVIDENT" ls > "$TEST_TMP/ls" || fail "ls"
if ! grep -q " aborted " "$TEST_TMP/ls"; then
	# every timed kill missed (a .ci/run of 2f51ce0ca: each landed before
	# the first variant or after the last was recorded): one more kill,
	# once a variant's begun marker (pending/RUN.json) is there
	"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 600); do
		ls artifacts/pending 2>/dev/null | grep -v -- '-batch\.json$' | grep -q '\.json$' && break
		sleep 0.05
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	expect_exit 0 "$EVIDENT" verify
	"$EVIDENT" ls > "$TEST_TMP/ls" || fail "ls"
fi
grep -q " aborted " "$TEST_TMP/ls" || { cat "$TEST_TMP/ls"; fail "no aborted run listed"; }
ls artifacts/tmp | grep -q . && echo "(tmp leftovers are allowed: $(ls artifacts/tmp | wc -l))"
exit 0
