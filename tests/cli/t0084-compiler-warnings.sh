# a kernel the compiler warns about twice: the run records the count and the
# first warning (build.warnings), the run summary names them in its notes,
# `evident show` prints them on its build line, and a second run (its build
# from the cache) records the same (issue 23: the count was always 0)
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
builds_from_nothing "its subject is what a build records: the compiler's warnings"
mkrepo
cat > experiments/w.yaml <<'Y'
name: w
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: clean
variants:
  clean: {kernel: tests/fixtures/host/correct.c}
  warns: {kernel: tests/fixtures/host/warns.c}
timing: {samples: 3, warmup_ms: 1}
repeats: 1
Y
first='tests/fixtures/host/warns.c:10:42: warning: unsigned conversion from'
for pass in first again; do
	expect_exit 0 "$EVIDENT" run --no-progress experiments/w.yaml
	expect_contains "$TEST_TMP/out" "  - warns: the compiler warned 2 times: $first"
	expect_not_contains "$TEST_TMP/out" "clean: the compiler warned"
	run=$(ls -t artifacts/runs | grep -v batch | sed 's/\.json$//' | while read -r r; do
		[ "$(jget "artifacts/runs/$r.json" "d['variant']")" = warns ] && echo "$r"; done | head -1)
	[ -n "$run" ] || fail "no run of variant warns"
	expect_eq "$(jget "artifacts/runs/$run.json" "d['build']['warnings']['count']")" 2 "$pass build"
	expect_exit 0 "$EVIDENT" show "$run"
	expect_match "$TEST_TMP/out" "^build +ok.*, 2 compiler warnings \\(first: $first"
	expect_exit 0 "$EVIDENT" show --log "$run"
	[ "$(grep -c ': warning: ' "$TEST_TMP/out")" = 2 ] || { cat "$TEST_TMP/out"; fail "the log does not hold the 2 warnings counted"; }
done
