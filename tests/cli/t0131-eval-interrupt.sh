# t0131: SIGINT to evident eval.  Mid-candidate, the repeats that ran are
# recorded, the rest are not run, the answer is written (interrupted: true,
# never promoted) and eval exits 130 with the store intact; waiting for
# input, it exits 130 at once and answers nothing.
. "$REPO/tests/cli/lib.sh"
runs_alone "sends SIGINT once the first run of a candidate's batch is recorded, before its last"
mkrepo
cat > experiments/ev.yaml <<'Y'
name: ev
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 32, D: 16}
baseline: naive
variants:
  naive: {kernel: kernels/host/attn_naive.c}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 2000, cache: hot}
Y
mkfifo "$TEST_TMP/in" || fail "mkfifo"
"$EVIDENT" eval --no-progress experiments/ev.yaml < "$TEST_TMP/in" > "$TEST_TMP/answers" 2> "$TEST_TMP/err" &
pid=$!
exec 3> "$TEST_TMP/in"
echo '{"kernel": "kernels/host/attn_blocked.c", "name": "cut"}' >&3
for i in $(seq 300); do
	[ "$(ls artifacts/runs 2>/dev/null | wc -l)" -ge 1 ] && break
	sleep 0.1
done
[ "$(ls artifacts/runs 2>/dev/null | wc -l)" -ge 1 ] || { kill $pid; fail "no run recorded in 30 s"; }
kill -INT $pid
wait $pid
rc=$?
exec 3>&-
expect_eq "$rc" 130 "eval interrupted mid-candidate"
python3 - "$TEST_TMP/answers" <<'P' || fail "the answer of the interrupted candidate"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
assert len(a) == 1, a
a = a[0]
assert a["line"] == 1 and a["candidate"] == "cut", a
assert a["interrupted"] is True and a["promoted"] is False, a
assert a["decision"].startswith("not promoted: interrupted (SIGINT/SIGTERM) before every repeat ran"), a["decision"]
assert 1 <= len(a["runs"]) + len(a["reference"]["runs"]) < 6, a
P
expect_exit 0 "$EVIDENT" verify

# waiting for its next line: exits 130 at once, no answer
"$EVIDENT" eval --no-progress experiments/ev.yaml < "$TEST_TMP/in" > "$TEST_TMP/answers2" 2> "$TEST_TMP/err" &
pid=$!
exec 3> "$TEST_TMP/in"
for i in $(seq 100); do
	grep -q "^eval: experiment ev" "$TEST_TMP/err" && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
exec 3>&-
expect_eq "$rc" 130 "eval interrupted while waiting for input"
[ ! -s "$TEST_TMP/answers2" ] || fail "an answer without a candidate"
exit 0
