# The sanitized pass's short way through the lines of src/ that only long
# tests reach (tests/cli/san-skip.txt lists those; the plain pass runs
# them in full).  Each step is one of theirs on fewer variants (--only,
# the baseline with it) or fewer repeats, with that test's checks of it:
#   t0004  a worker killed by SIGABRT, and by SIGSEGV in the timed samples
#   t0053  a worker that speaks during the timed samples (sample_flood)
#   t0066  a worker stuck in vfork past its time limit (vfork_stall)
#   t0057  an assembler told to read a file no #include names (asm_paste)
#   t0059  control bytes in a kernel's messages, warnings and build
#          errors (ctl_*), shown escaped; oom_undo boxed and unboxed
#   t0050  a kernel that rewrites its own object, unboxed: tampered, and
#          the cache entry set aside by the next build of its key
#   t0090  --gpus 2 on the host (a pool), show naming a run's slot, and
#          the refusals of a bad --gpus and a bad gpus:
#   t0096  a dry run's estimate with --only
#   t0097  a CPU peak cache that cannot be written, and a damaged one
#   t0041  evident help problems
#   t0054  a worker that times itself where the parent keeps the clock
#          (downgrade), and one that floods its stdout past the kept
#          bytes (log_flood, 8 MiB of it here, not 64), each beside the
#          honest baseline at 5 hot samples (not 60 cold ones)
#   t0147  a runner pinned to one CPU (taskset, as t0147 runs its pools):
#          the box then refuses sched_setaffinity (sandbox.c
#          sandbox_runner_pinned; on a machine of one CPU a pin is no pin)
#   t0081  a kernel whose init refuses the extra shape (specialised; its
#          init_failed message from the worker), a misspelt tunable's
#          did-you-mean note, evident ls --json of runs
#          (tests/fixtures/host/even_only.c for the guide's rowsum kernels)
#   t0146  a spec's compiler flag that names no library directory
#          (-fopenmp there; -fno-strict-aliasing here), which the runner's
#          look for -L and -Wl,-rpath directories passes over (run.c)
# The build cache's race between two runners publishing the same key
# (t0034's four writers) is test_build's test_publish_race.  Under ASan
# and UBSan the point is that these lines run at all: what they decide is
# the long tests' to check, and is checked here only as far as the steps
# go.  Measured with scripts/cli-coverage.sh: see san-skip.txt.
. "$REPO/tests/cli/lib.sh"
sanitized_pass_only "the plain pass runs the long tests it stands for"
mkrepo
S=tests/fixtures/specs
num='[0-9][0-9.e+-]*'
# the CPU peak's cache (t0097, t0090): each measurement is about 7 s of
# CPU here (3 arrays of 256 MiB: the last-level cache is 508 MiB), so the
# test measures twice, not three times: first where the cache cannot be
# written (measured, not kept), then the first run of the rest finds a
# damaged cache where the peak of this CPU is kept, names it, measures
# again and keeps the measurement, which every later run reads
export XDG_CACHE_HOME=$TEST_TMP/xdg

# t0097: a CPU peak cache that cannot be written
touch notadir
XDG_CACHE_HOME="$TEST_TMP/repo/notadir" expect_exit 0 "$EVIDENT" run --no-progress --only blocked $S/tiny.yaml
expect_contains "$TEST_TMP/err" "warning: cannot cache the CPU peak (cannot create '$TEST_TMP/repo/notadir/evident"
expect_match "$TEST_TMP/out" "^peak: $num GFLOP/s fp32 and $num GB/s, one core of CPU"
# ... and a damaged one where this CPU's is kept: cpu_peak.c's
# cpu_peak_cache_path, XDG_CACHE_HOME/evident/cpu-peaks/ and the first 16
# hex digits of the sha256 of the CPU model, which the records name
# (machine.cpu); a wrong path here fails t0004's check of the warning
r=$(grep -l '"experiment": "tiny"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of the run of blocked"
cache=$XDG_CACHE_HOME/evident/cpu-peaks/$(jget "$r" "__import__('hashlib').sha256(d['machine']['cpu'].encode()).hexdigest()[:16]").json
mkdir -p "${cache%/*}" && echo '{"format": "evident-cpu-peak/1", "gflops": "fast"}' >"$cache" || fail "cannot write '$cache'"

# t0041
expect_exit 0 "$EVIDENT" help problems
expect_contains "$TEST_TMP/out" "gemm - C = A B"

# t0004, at a time limit of 30 s, not the spec's 3 s (there for its
# hang, not run here): segv_timed must reach its 8th launch (the timed
# samples) to crash there, and under ASan beside make test it was killed
# at 3.2 s in its warm-up or timing, 0 samples reported (timeout, 2 of
# the local full runs of 2026-11-29, 15:59 and 17:44, loads 12.7 and 8.3)
sed 's/timeout_s: 3}/timeout_s: 30}/' $S/host-faults.yaml >experiments/faults.yaml
grep -q 'timeout_s: 30}' experiments/faults.yaml || fail "host-faults.yaml's limit was not raised"
expect_exit 0 "$EVIDENT" run --no-progress --only abort --only segv_timed experiments/faults.yaml
# (t0090, t0097: the damaged cache named, measured again, and kept)
expect_contains "$TEST_TMP/err" "warning: the cached CPU peak '$cache' is not a measurement (expected evident-cpu-peak/1 with positive gflops and gbps); measuring again"
expect_contains "$TEST_TMP/err" "cached in $cache: delete it to measure again)"
expect_eq "$(jget "$cache" "d['gflops'] > 0 and d['gbps'] > 0")" True "the measurement kept in '$cache'"
expect_contains "$TEST_TMP/out" "abort: crashed - worker killed by SIGABRT during init or correctness seed 0 (the kernel loaded; no seed output yet) (expected)"
expect_match "$TEST_TMP/out" "segv_timed: crashed - worker killed by SIGSEGV .*(warm-up|timing)"

# t0053
expect_exit 0 "$EVIDENT" run --no-progress --only sample_flood $S/host-redteam.yaml
grep -q "UNEXPECTED" "$TEST_TMP/out" && fail "sample_flood did not get its expected outcome"
expect_match "$TEST_TMP/out" "^sample_flood +protocol_violation"

# t0066
timeout -s KILL 120 "$EVIDENT" run --no-progress --only vfork_stall $S/host-redteam7.yaml >"$TEST_TMP/out" 2>&1
[ $? != 137 ] || fail "evident run still ran after 120 s"
# a box refuses its vfork thread since red team 109: ok.  The kernel still
# sleeps until 0.4 s before its 3 s limit on purpose, and the sanitized
# runner's last nine samples and checks have those 0.4 s: on a loaded
# machine (CI, a load of 57 once) that is a timeout at the limit, which
# holds the property this step is for (the limit held, no freeze past
# it); t0066, alone in the plain pass, requires ok
if grep -qE "^vfork_stall +timeout" "$TEST_TMP/out"; then
	expect_match "$TEST_TMP/out" "vfork_stall: timeout - no result within [0-9.]+ s"
	# (2.9 to 3.2 s seen): within t0066's bound, the limit and 1.2 s
	w=$(sed -n 's/.*vfork_stall: timeout - no result within \([0-9.]*\) s.*/\1/p' "$TEST_TMP/out" | head -1)
	awk -v w="$w" 'BEGIN { exit !(w != "" && w < 3 + 1.2) }' || fail "vfork_stall's timeout at ${w:-?} s overran its 3 s limit"
else
	grep "UNEXPECTED" "$TEST_TMP/out" && fail "vfork_stall did not get its expected outcome"
	expect_match "$TEST_TMP/out" "^vfork_stall +ok"
fi

# t0057
"$EVIDENT" run --no-progress --only asm_paste $S/host-redteam3.yaml >"$TEST_TMP/out" 2>&1
expect_match "$TEST_TMP/out" "^asm_paste +build_failed"
expect_contains "$TEST_TMP/out" "which no #include names"

# t0059: the control bytes, the OOM score, the spec's library directories
"$EVIDENT" run --no-progress --only ctl_msg --only ctl_warn --only ctl_build --only oom_undo \
	$S/host-redteam4.yaml >"$TEST_TMP/out" 2>&1
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^ctl_build +build_failed"
expect_contains "$TEST_TMP/out" "ctl_msg: protocol_violation - protocol violation: unknown message '\x1b[2J\x1b]0;owned\x07\x0dok'"
# no control byte but newline and tab in what the run and each show
# printed (kept in $TEST_TMP/raw, one file each, named for what printed
# it): one python3 for them all, not one a file
mkdir -p "$TEST_TMP/raw" && cp "$TEST_TMP/out" "$TEST_TMP/raw/the run's summary" || fail "mkdir"
for r in $(grep -l '"experiment": "host-redteam4"' artifacts/runs/*.json | grep -v batch); do
	id=$(basename "$r" .json)
	"$EVIDENT" show "$id" >"$TEST_TMP/raw/show $id" 2>&1 || fail "show $id"
	"$EVIDENT" show --lineage "$id" >"$TEST_TMP/raw/show --lineage $id" 2>&1 || fail "show --lineage $id"
done
python3 - "$TEST_TMP"/raw/* <<'PY' || fail "a raw control byte was printed"
import os, sys
assert len(sys.argv) > 3, "no show was run: %s" % sys.argv[1:]
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
    assert not bad, "%s printed a raw control byte: %s" % (os.path.basename(f), bad[:5])
PY
b=$(grep -l '"experiment": "host-redteam4"' artifacts/runs/*.json | grep batch | head -1)
"$EVIDENT" show --lineage "$(basename "$b" .json)" >"$TEST_TMP/show" 2>&1 || fail "show --lineage of the batch"
expect_contains "$TEST_TMP/show" 'mutation \x1b[2J\x1b]0;owned\x07'
"$EVIDENT" run --no-progress --unsandboxed --store unboxed --only oom_undo $S/host-redteam4.yaml >"$TEST_TMP/unboxed" 2>&1
r=$(grep -l '"variant": "oom_undo"' unboxed/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no unsandboxed record of oom_undo"
# judged by what the parent read (judge.sandbox.oom_score_adj), not by the
# kernel's own line in the log: a worker stopped for the violation may die
# before its stderr line is kept (make test at 0f5efba3: the write went
# through, the log was empty, and the test expected ok)
if [ "$(jget "$r" "d['judge']['sandbox'].get('oom_score_adj', 1000)")" != 1000 ]; then
	expect_eq "$(jget "$r" "d['outcome']")" "protocol_violation" "oom_undo lowered its OOM score unsandboxed"
else
	expect_eq "$(jget "$r" "d['outcome']")" "ok" "oom_undo, its write refused"
fi

# t0054: on 5 hot samples (the cheats act from the first), a flood of 8 MiB
sed -e 's/samples: 60, cache: cold/samples: 5, cache: hot/' $S/host-redteam2.yaml >experiments/rt2.yaml
sed -e 's/samples: 20,/samples: 5,/' -e 's/FLOOD_MB: 64/FLOOD_MB: 8/' $S/host-redteam2-runner.yaml >experiments/rt2-runner.yaml
grep -q 'samples: 5, cache: hot' experiments/rt2.yaml && grep -q 'FLOOD_MB: 8}' experiments/rt2-runner.yaml ||
	fail "the t0054 specs did not take the smaller settings"
"$EVIDENT" run --no-progress --only downgrade experiments/rt2.yaml >"$TEST_TMP/out" 2>&1
expect_match "$TEST_TMP/out" "^downgrade +protocol_violation"
"$EVIDENT" run --no-progress --only log_flood experiments/rt2-runner.yaml >"$TEST_TMP/out" 2>&1
r=$(grep -l '"variant": "log_flood"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of log_flood"
"$EVIDENT" show --log "$(basename "$r" .json)" >"$TEST_TMP/log" 2>&1
expect_match "$TEST_TMP/log" "more bytes of stdout were dropped"

# t0050
for i in 1 2; do
	expect_exit 1 "$EVIDENT" run --no-progress --jobs 1 --unsandboxed --only bin_swap $S/host-adversary.yaml
	expect_contains "$TEST_TMP/out" "bin_swap: tampered"
done
expect_contains "$TEST_TMP/err" "does not match the hash recorded when it was built"
ls build/cache | grep -q '\.tampered-' || fail "the tampered cache entry was not set aside"

# t0090 (its damaged CPU peak cache: at t0004)
expect_exit 0 "$EVIDENT" run --no-progress --gpus 2 --repeats 2 $S/tiny.yaml
pool=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$pool" ] || fail "no batch id"
run=$(python3 -c "import json; print(json.load(open('artifacts/runs/$pool.json'))['variants'][0]['runs'][1])")
expect_exit 0 "$EVIDENT" show "$run"
expect_contains "$TEST_TMP/out" "executor   pool, slot 1 of 2"
expect_exit 2 "$EVIDENT" run --gpus 0,0 $S/tiny.yaml
expect_contains "$TEST_TMP/err" "error: --gpus: gpus '0,0': CPU 0 is listed twice in '0,0'"
sed 's/^repeats: 1 .*/gpus: "1,x"/' $S/tiny.yaml >experiments/badgpus.yaml
expect_exit 3 "$EVIDENT" run experiments/badgpus.yaml

# t0096
expect_exit 0 "$EVIDENT" run --dry-run --only blocked --repeats 2 $S/tiny.yaml
expect_match "$TEST_TMP/out" "^plan: 2 variants x 2 repeats = 4 runs, interleaved; estimated [0-9]+ (s|min [0-9]+ s) \\([0-9.]+ s a run in batch .*-tiny-.*-batch\\)\$"

# t0147: the runner pinned to the CPU it runs on, a run of the blocked kernel
command -v taskset >/dev/null || fail "taskset (util-linux) is not installed"
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
expect_exit 0 taskset -c "$cpu" "$EVIDENT" run --no-progress --only blocked $S/tiny.yaml
expect_match "$TEST_TMP/out" "^blocked +ok "

# t0146: a flag that is no library directory, compiled in and run
sed 's/^repeats: 1 .*/repeats: 1\nflags: [-fno-strict-aliasing]/' $S/tiny.yaml >experiments/tiny-flags.yaml
grep -q '^flags: \[-fno-strict-aliasing\]$' experiments/tiny-flags.yaml || fail "tiny.yaml has no 'repeats: 1 ' line to add the flags after"
expect_exit 0 "$EVIDENT" run --no-progress --only blocked experiments/tiny-flags.yaml
expect_match "$TEST_TMP/out" "^blocked +ok "
r=$(grep -l '"experiment": "tiny"' artifacts/runs/*.json | xargs grep -l 'fno-strict-aliasing' | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of the run compiled with -fno-strict-aliasing"
# t0081: specialised at the extra shape, and TILES is not TILE
sed 's/^name: tiny$/name: tiny-even/; s#^  blocked: .*#  even:    {kernel: tests/fixtures/host/even_only.c, TILES: 4}#' $S/tiny.yaml >experiments/even.yaml
grep -q 'even_only.c, TILES: 4' experiments/even.yaml || fail "tiny.yaml has no blocked variant to replace"
expect_exit 0 "$EVIDENT" run --no-progress experiments/even.yaml
# (S drawn each run between the problem's 23 and the spec's, of either
# parity: red teams 274, 277; an even S is checked, with no note)
if grep -q "even: specialised" "$TEST_TMP/out"; then
	expect_match "$TEST_TMP/out" "even: specialised: its init refused the extra shape \\(S=[0-9]*[13579] is not a multiple of TILE=2\\); it was checked at the spec's shape only"
fi
expect_contains "$TEST_TMP/out" "even: parameter TILES was not echoed by the kernel (did you mean TILE?): it may never reach the code"
expect_exit 0 "$EVIDENT" ls --json --experiment tiny-even
expect_eq "$(python3 -c 'import json,sys; print(sorted((r["variant"], r["outcome"]) for r in json.load(open(sys.argv[1]))))' "$TEST_TMP/out")" "[('even', 'ok'), ('naive', 'ok')]" "ls --json of tiny-even's runs"
exit 0
