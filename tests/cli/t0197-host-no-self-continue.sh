# t0197 - nothing but the parent resumes a stopped host worker (red team
# 90).  Before: lastfix.c left the last timed sample's Y[0] wrong at its
# done line and armed a POSIX timer whose SIGCONT resumed a helper thread
# after the parent's stops; the helper wrote the right value while the
# parent stopped, listed and read idle threads (before its copy of the
# outputs) or after the last freeze (before the capture, with no next go
# to ask whether the worker ran): the wrong outputs were recorded ok.
# Now (1) in a host box timer_create is refused (and kill/tkill/tgkill
# with SIGCONT, fcntl F_SETSIG: test_sandbox), so lastfix's init fails;
# (2) unboxed, where the timer works, the parent copies the outputs
# before the work that grows with the threads (a later write is a late
# write: escaped_work) and, after the copy a check judges, asks that the
# worker's CPU clock is still the freeze's (else protocol_violation).
# Measured on a 2-CPU VM at load 5-7 with 150 idle threads: on main 7 of
# 12 timer runs ok, the helper's own log saying its write came after the
# parent's stops; with the fix 0 of 12 (escaped_work 9, wrong_output 2,
# protocol_violation 1, as the timer lands).
. "$REPO/tests/cli/lib.sh"
runs_alone "a timer's SIGCONT against the parent's stops: which window it lands in is the scheduler's"
mkrepo
# (1) boxed: the timer cannot be made
cat > experiments/box.yaml <<'EOF'
name: t0197-box
question: Can a host kernel arm a SIGCONT timer in its box?
problem: rowsum
backend: host
kernel: tests/fixtures/adversary/host/redteam90/lastfix.c
shape: {R: 64, C: 256}
baseline: a
variants:
  a: {FIX_US: 0, LAST: 8, expect: ok}
  f400: {FIX_US: 400, LAST: 8, expect: init_failed}
  d20: {FIX_US: 20000, DECOYS: 50, LAST: 8, expect: init_failed}
correctness: {seeds: 2, seed: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
repeats: 1
EOF
expect_exit 0 "$EVIDENT" run --no-progress experiments/box.yaml
expect_match "$TEST_TMP/out" '^ +- a: ok \(expected\)'
expect_match "$TEST_TMP/out" '^ +- f400: init_failed - init: timer_create failed \(expected\)'
expect_match "$TEST_TMP/out" '^ +- d20: init_failed - init: timer_create failed \(expected\)'
# (2) unboxed: the timer fires after the last sample's done line, in the
# parent's stops and reads (150 idle threads stretch them)
cat > experiments/unbox.yaml <<'EOF'
name: t0197-unbox
question: Does the parent judge outputs that a self-resumed worker wrote?
problem: rowsum
backend: host
kernel: tests/fixtures/adversary/host/redteam90/lastfix.c
shape: {R: 64, C: 256}
baseline: a
variants:
  a: {FIX_US: 0, DECOYS: 150, LAST: 8, expect: ok}
  u10: {FIX_US: 1000, DECOYS: 150, LAST: 8, expect: wrong_output}
  u13: {FIX_US: 1300, DECOYS: 150, LAST: 8, expect: wrong_output}
  u16: {FIX_US: 1600, DECOYS: 150, LAST: 8, expect: wrong_output}
  u20: {FIX_US: 2000, DECOYS: 150, LAST: 8, expect: wrong_output}
correctness: {seeds: 2, seed: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
repeats: 2
EOF
# outcomes other than the spec's expect: exit 1 is allowed
"$EVIDENT" run --no-progress --unsandboxed experiments/unbox.yaml > unbox.out 2>&1
runs=$(ls artifacts/runs | grep -- '-t0197-unbox-' | grep -v -- -batch | sed 's/\.json$//')
[ "$(echo "$runs" | wc -w)" = 10 ] || { cat unbox.out; fail "expected 10 runs, got: $runs"; }
bad=""
for run in $runs; do
	read -r variant outcome <<EOF2
$(python3 -S -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["variant"], d["outcome"])' "artifacts/runs/$run.json")
EOF2
	if [ "$variant" = a ]; then
		[ "$outcome" = ok ] || { cat unbox.out; fail "$run: the honest control a is $outcome"; }
		continue
	fi
	[ "$outcome" = ok ] || continue
	# ok is right only where the helper wrote inside the timed window
	# (its own log: no stop had taken it since the timer was armed)
	"$EVIDENT" show --log "$run" > log 2>&1
	if ! grep -q "rt90 fix launch .*write inside the timed window" log; then
		cat log
		bad="$bad $variant:$run"
	fi
done
[ -z "$bad" ] || { cat unbox.out; fail "ok with the last sample's done-line outputs wrong (written after the parent's stops):$bad"; }
