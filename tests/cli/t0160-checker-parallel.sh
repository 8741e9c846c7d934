# The checker judges its captures in K processes (src/backends/checker.c,
# checker_jobs): `evident __check` on one check job, with
# EVIDENT_CHECK_JOBS 1, 2, 3 and 5, writes the same bytes (the done line
# alone says how many processes judged), an error at a capture stops every
# K at that capture with the same lines before it, and a bad
# EVIDENT_CHECK_JOBS is refused.  Left to choose, the checker splits a
# check big enough (S 256) over the CPUs it may use: one when pinned to a
# CPU (taskset), so the same bytes in one process.  A run records the processes used
# (judge.checker_jobs): 2 when forced, 1 for checks this small.
. "$REPO/tests/cli/lib.sh"
mkrepo
cc -O2 -std=c11 -shared -fPIC -Iproblems problems/attention_fwd.c -o "$TEST_TMP/attn.so" -lm || fail "cc problem"
# a host check job of attention_fwd fp32: 3 seed launches, 9 parent-timed
# samples, outputs zeros or pseudo-random bytes; bad: a capture outside the file
mkcheck() {
	python3 - "$1" "$TEST_TMP/attn.so" "$2" "${3:-32}" <<'P' || fail "mkcheck"
import json, os, random, sys
out, so, bad, S = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.makedirs(out, exist_ok=True)
rng = random.Random(7)
B, H, D, ns, nt = 1, 2, 16, 3, 9
nbytes = B * H * S * D * 4
caps = []
with open(os.path.join(out, "captures.bin"), "wb") as f:
    for i in range(ns + nt):
        f.write(bytes(nbytes) if i % 3 == 0 else rng.randbytes(nbytes))
        c = {"timed": i >= ns, "index": i - ns if i >= ns else i, "global": i, "set": 0, "batch": 1,
             "offset": 10 ** 12 if i == bad else i * nbytes, "bytes": nbytes}
        if i >= ns:
            c["seed"], c["dist"] = 1000 + i, i % 4
        caps.append(c)
job = {"phase": "main", "backend": "host", "kernel_so": "none.so", "problem": "attention_fwd",
       "problem_so": so, "shape": [B, H, S, D], "dtype": "fp32", "knobs": {}, "seeds": ns, "seed0": 42,
       "timing": True, "timing_seed": 99, "n_sets": 1, "first_set": 0, "scramble_seed": 5, "device": 0}
json.dump({"job": job, "tolerance": {"atol": 1e-4, "rtol": 1e-4, "rel_l2": 1e-5},
           "captures_file": os.path.join(out, "captures.bin"), "captures": caps, "cross_check": False,
           "focus_secret": 12345}, open(os.path.join(out, "check.json"), "w"))
P
}
mkcheck "$TEST_TMP/ok" -1
mkcheck "$TEST_TMP/bad" 7
# the checker's first line says what it sees of its box (job.c
# checker_box_seen; t0245): once, first, then the judging's lines
nobox() {
	head -1 "$TEST_TMP/out" | grep -q '^{"msg":"box","box":{"seccomp":' || fail "no box line first: $(head -1 "$TEST_TMP/out")"
	tail -n +2 "$TEST_TMP/out" > "$TEST_TMP/out.judged" && mv "$TEST_TMP/out.judged" "$TEST_TMP/out" || fail "nobox"
}
for k in 1 2 3 5; do
	EVIDENT_CHECK_JOBS=$k expect_exit 0 "$EVIDENT" __check "$TEST_TMP/ok/check.json"
	nobox
	expect_eq "$(tail -1 "$TEST_TMP/out")" "{\"jobs\":$k,\"msg\":\"done\"}" "K=$k's done line"
	head -n -1 "$TEST_TMP/out" > "$TEST_TMP/ok/lines$k"
	[ "$(wc -l < "$TEST_TMP/ok/lines$k")" = 12 ] || fail "K=$k: not a line per capture"
	cmp "$TEST_TMP/ok/lines1" "$TEST_TMP/ok/lines$k" || fail "K=$k wrote other lines than one process"
	EVIDENT_CHECK_JOBS=$k expect_exit 1 "$EVIDENT" __check "$TEST_TMP/bad/check.json"
	nobox
	cp "$TEST_TMP/out" "$TEST_TMP/bad/out$k"
	cmp "$TEST_TMP/bad/out1" "$TEST_TMP/bad/out$k" || fail "K=$k stopped elsewhere than one process"
done
[ "$(wc -l < "$TEST_TMP/bad/out1")" = 8 ] || fail "the error is not capture 7's line"
expect_eq "$(tail -1 "$TEST_TMP/bad/out1")" '{"msg":"error","reason":"a capture lies outside the capture file"}'
cmp <(head -7 "$TEST_TMP/ok/lines1") <(head -7 "$TEST_TMP/bad/out1") || fail "the lines before the error differ"
# S 256 (about 8 ms of work a capture): more than one process where more
# than one CPU may run it, one when pinned to a CPU, the same lines
mkcheck "$TEST_TMP/big" -1 256
EVIDENT_CHECK_JOBS=1 expect_exit 0 "$EVIDENT" __check "$TEST_TMP/big/check.json"
nobox
head -n -1 "$TEST_TMP/out" > "$TEST_TMP/big/lines1"
if [ "$(nproc)" -ge 2 ]; then
	expect_exit 0 "$EVIDENT" __check "$TEST_TMP/big/check.json"
	nobox
	tail -1 "$TEST_TMP/out" | grep -qE '^\{"jobs":([2-9]|1[0-9]),"msg":"done"\}$' || fail "unpinned on $(nproc) CPUs, one process: $(tail -1 "$TEST_TMP/out")"
	cmp <(head -n -1 "$TEST_TMP/out") "$TEST_TMP/big/lines1" || fail "the split check wrote other lines"
fi
command -v taskset >/dev/null || fail "taskset (util-linux) is not installed"
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
expect_exit 0 taskset -c "$cpu" "$EVIDENT" __check "$TEST_TMP/big/check.json"
nobox
expect_eq "$(tail -1 "$TEST_TMP/out")" '{"jobs":1,"msg":"done"}' "pinned to CPU $cpu, the done line"
cmp <(head -n -1 "$TEST_TMP/out") "$TEST_TMP/big/lines1" || fail "the pinned check wrote other lines"
EVIDENT_CHECK_JOBS=0 expect_exit 1 "$EVIDENT" __check "$TEST_TMP/ok/check.json"
expect_contains "$TEST_TMP/out" "EVIDENT_CHECK_JOBS is '0', not a whole number from 1 to 64"
# a run: the record says how many processes judged
cat > experiments/x.yaml <<'Y'
name: checkpar
question: Does the record say how many processes judged?
problem: attention_fwd
backend: host
shape: {B: 1, H: 2, S: 64, D: 16}
dtype: fp32
baseline: blocked
variants:
  blocked: {kernel: kernels/host/attn_blocked.c, BLOCK_M: 16, BLOCK_N: 32}
correctness: {seeds: 2}
timing: {warmup_ms: 5, samples: 6, cache: hot}
repeats: 1
Y
EVIDENT_CHECK_JOBS=2 expect_exit 0 "$EVIDENT" run --no-progress experiments/x.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/x.yaml
python3 - artifacts/runs/*.json <<'P' || fail "the record's checker_jobs"
import json, sys
jobs = []
for p in sys.argv[1:]:
    d = json.load(open(p))
    if 'judge' not in d:
        continue
    assert d['outcome'] == 'ok', (p, d['outcome'])
    assert all(c['pass'] for c in d['correctness']['checks']), p
    jobs.append((d['started_utc'], d['judge']['checker_jobs']))
assert [j for _, j in sorted(jobs)] == [2, 1], jobs
P
