# t0207 - red team 97 (tests/fixtures/adversary/host/redteam97/README.md).
# 1. An unpinned verdict claim reads the newest finished batch of the
#    current code, not a newer interrupted one (SIGINT: a user, `timeout`,
#    Slurm): its one repeat a side read inconclusive and contradicted a
#    claim whose finished batch was faster ~20x; it still counts as a try
#    (exactly half: unsupported, not contradicted).
# 2. A try killed at another shape (SIGKILL once its first run landed:
#    runs, no batch record, and its begun marker naming both codes) is one
#    more configuration the verdict is adjusted over: red team 97's
#    stopper gave each killed try a shape of its own and none was counted
#    (144 of 144), "faster" on the reference's own work supported 13.28x;
#    so is one stopped by SIGINT there with one side never run, and one
#    killed before any run landed (red team 99: 11 of 27 and 20 of 43
#    uncounted).
# 3. An interrupted try (SIGINT) whose runs of both sides all went the
#    claimed way is left out, as a killed one (SIGKILL) is: it counted
#    against, and an honest claim read unsupported (red team 97's h2).
. "$REPO/tests/cli/lib.sh"
runs_alone "stops evident run sessions once a run record lands"
mkrepo
spec() { # spec C: the experiment at C columns
	cat <<Y
name: it
problem: rowsum
backend: host
kernel: tests/fixtures/adversary/host/redteam65/padwall.c
shape: {R: 64, C: $1}
baseline: ref
variants:
  ref:  {NOP: 1, WALL: 1, PRE: 0, POST: 3000}
  fast: {NOP: 2}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 20, cache: hot}
limits: {timeout_s: 60}
repeats: 5
Y
}
spec 1024 > experiments/it.yaml
S="$EVIDENT_STORE"
expect_exit 0 "$EVIDENT" run --no-progress experiments/it.yaml
# (~5x at rest; a load that makes the first batch inconclusive leaves
# nothing to test)
grep -qE "^fast .* faster" "$TEST_TMP/out" || skip "the first batch read $(grep -oE '^fast .*' "$TEST_TMP/out" | awk '{print $NF}') at load $(cut -d' ' -f1 /proc/loadavg)"
nruns() { ls "$S/runs" 2>/dev/null | grep -vc -- '-batch.json$'; }
# stress_held FILE: the audit held the claim by the fast side's stress
# cost (a stress distribution of the problem, checked and never timed,
# over 3x slower than its timing median in a batch of its code: red teams
# 145, 153), which a load spike gives an honest kernel too (CI's run of
# 2026-12-04 08:03 beside a load of 152: 5.46x): that rule decides before
# the configurations are counted, so there is nothing left to test
stress_held() {
	grep -q "ran a stress distribution of the problem .* slower than its timing median" "$1" &&
		skip "the fast side's stress samples read slow at load $(cut -d' ' -f1 /proc/loadavg): $(grep -oE 'stress distribution of the problem [0-9.]+x slower' "$1" | head -1)"
	return 0
}
# stop_run SIGNAL SPEC [N]: a session of SPEC, stopped once N (1) run
# records have landed
stop_run() {
	local before; before=$(( $(nruns) + ${3:-1} - 1 ))
	"$EVIDENT" run --no-progress "$2" > "$TEST_TMP/stop.$1" 2>&1 &
	local pid=$!
	for i in $(seq 600); do
		[ "$(nruns)" -gt "$before" ] && break
		sleep 0.05
	done
	[ "$(nruns)" -gt "$before" ] || { kill $pid; fail "no run recorded in 30 s ($1)"; }
	kill -"$1" $pid
	wait $pid
}
# 2: a try killed at another shape
spec 1536 > experiments/it2.yaml
stop_run KILL experiments/it2.yaml
m=$(ls "$S"/pending/*-batch.json 2>/dev/null | head -1)
[ -n "$m" ] || fail "the killed session left no begun marker"
printf '<!-- claim: faster experiment=it a=fast b=ref -->\n' > c.md
"$EVIDENT" audit --no-untraced c.md > c2.out 2>&1
stress_held c2.out
expect_match c2.out "c.md:1: [a-z]+: faster fast vs ref: .*(adjusted over the 2 configurations|tried in 2 configurations)"
# red team 99: a try stopped by SIGINT at another shape once one run had
# landed (the other side aborted: no ok row of it) is one more, and so is
# one killed before any run of it landed (its begun marker alone)
spec 2048 > experiments/it3.yaml
stop_run INT experiments/it3.yaml
"$EVIDENT" audit --no-untraced c.md > c4.out 2>&1
stress_held c4.out
expect_match c4.out "c.md:1: [a-z]+: faster fast vs ref: .*(adjusted over the 3 configurations|tried in 3 configurations)"
spec 3072 > experiments/it4.yaml
before=$(ls "$S"/pending/*-batch.json 2>/dev/null | wc -l)
"$EVIDENT" run --no-progress experiments/it4.yaml > "$TEST_TMP/stop.m" 2>&1 &
pid=$!
for i in $(seq 600); do
	[ "$(ls "$S"/pending/*-batch.json 2>/dev/null | wc -l)" -gt "$before" ] && break
	sleep 0.02
done
kill -KILL $pid
wait $pid
"$EVIDENT" audit --no-untraced c.md > c5.out 2>&1
stress_held c5.out
expect_match c5.out "c.md:1: [a-z]+: faster fast vs ref: .*(adjusted over the 4 configurations|tried in 4 configurations)"
# 3: an interrupted try whose runs of both sides all went the claimed
# way is left out, as a killed one is (red team 97's h2: SIGINT or
# SIGTERM counted it against, SIGKILL left it out); its first three jobs
# ran both variants (with 2 variants a slot's blocks go in pairs, four
# jobs each variant twice: xxyy, xyxy or xyyx after a first drawn at
# random, plan.c plan_order; red team 126), each ~5x apart
stop_run INT experiments/it.yaml 3
"$EVIDENT" audit --no-untraced c.md > c3.out 2>&1
# (at a load far past the CPUs the stop can land after more runs, or a
# run of the fast side read slower than the reference's: then the try did
# not go the claimed way and is counted; make test met a load of 138 once)
if ! grep -qE "c.md:1: supported: .*1 stopped try \(interrupted, or runs and no batch record\) going its way left out" c3.out; then
	stress_held c3.out
	load=$(cut -d' ' -f1 /proc/loadavg)
	awk -v l="$load" 'BEGIN { exit !(l > 8) }' && skip "the interrupted try read otherwise at load $load: $(grep -o 'only .*' c3.out | head -1)"
	# the claim's own batch timed the reference slower than another
	# batch of the test did (the drift rule, red team 59): its timings,
	# not the stopped try's count (make test of 2026-12-02 11:06, ref
	# 1.37x slower than in the test's next batch, at load 4.7 beside the
	# alone phase's other test)
	grep -q "slower here than the fastest its code was recorded at" c3.out &&
		skip "the reference's timings drifted between the test's batches at load $load: $(grep -o 'ran [0-9.]*x slower here' c3.out | head -1)"
	# the fast side's own median moved between the claim's batch and the
	# stopped try (candidate drift, red teams 224 and 225: a candidate
	# much faster here than in another batch of the two codes, where it
	# ran slower itself, is held as a possible coin); the sanitized pass
	# at load 3 gave an honest fast side 4.0x here and 2.6x in the stopped
	# try, its own median 1.54x slower there (CI of 2026-12-05 23:15):
	# the batches' timings, not the try's count
	grep -q "its speed moved with its history" c3.out &&
		skip "the fast side's speed moved between the test's batches at load $load: $(grep -oE 'was [0-9.]+x the other side.s speed here and [0-9.]+x' c3.out | head -1)"
	# the stopped try was left out (the property), but the claim's own
	# batch read a speedup whose p, adjusted over the 4 configurations
	# tried, is past the gate (CI of 2026-12-04 21:11 at load ~3 beside
	# the alone phase: 1.817x [1.156, 2.399], adjusted p 0.12): that is
	# the batch's timing, not the try's count, and part 1 below reads the
	# same batch, so there is nothing left to test
	if grep -qE "c.md:1: [a-z]+: .*1 stopped try \(interrupted, or runs and no batch record\) going its way left out; but the two kernels were tried in 4 configurations" c3.out; then
		skip "the stopped try was left out, but the claim's batch read $(grep -oE 'speedup of fast over ref [0-9.]+x \[[0-9., ]+\]' c3.out | head -1) at load $load, inconclusive adjusted over 4 configurations"
	else
		expect_match c3.out "c.md:1: supported: .*1 stopped try \(interrupted, or runs and no batch record\) going its way left out"
	fi
fi
# 1: an interrupted batch at the claim's shape, newer than the finished
# one, with one side's run only (counted against: exactly half)
stop_run INT experiments/it.yaml
[ "$(ls "$S"/runs/*-batch.json | wc -l)" -ge 4 ] || fail "the interrupted batches were not recorded"
"$EVIDENT" audit --no-untraced c.md > c.out 2>&1
expect_not_contains c.out "c.md:1: contradicted"
expect_match c.out "c.md:1: (unsupported|supported): faster fast vs ref: speedup of fast over ref [0-9.]+x"
