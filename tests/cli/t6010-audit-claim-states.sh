# t6010: every claim kind goes through its states as the store changes:
# unsupported (no run), supported / contradicted (a real run), contradicted
# after a crashing run of the same source; after editing the kernel, claims
# the old runs back are stale, and claims they contradict stay contradicted
# (saying "also stale"), never hidden as merely stale.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
runs_alone_light "the fixture's slow variant must be judged slower: a verdict timed on the CPU (it mostly sleeps: two such tests share a CPU in make test's alone phase)"
setup_tiny_repo
cp "$REPO/tests/fixtures/paper/claims.md" .
f=claims.md

# 1. no store at all: every claim unsupported
expect_exit 1 "$EVIDENT" audit $f
for l in 2 3 4 5 6 7 8 9 10; do expect_contains "$TEST_TMP/out" "$f:$l: unsupported: "; done
expect_contains "$TEST_TMP/out" "$f:2: unsupported: validated tiny/slow: no recorded run"
expect_contains "$TEST_TMP/out" "$f:9: unsupported: measured-on tiny \"CPU\": no recorded run of experiment 'tiny'"
expect_contains "$TEST_TMP/out" 'audit: 9 claims: 0 supported, 0 contradicted, 0 stale, 9 unsupported; 0 untraced numbers'

# 2. one clean run (the claim on n says what it recorded: about 45)
run_tiny tiny.yaml
n=$(tiny_n)
tiny_fix_n $f "$n"
expect_exit 1 "$EVIDENT" audit $f
o="$TEST_TMP/out"
# slow and base are one kernel file (tiny_attn.c at REPEAT 6 and 1): validated reads both (red team 44)
expect_contains $o "$f:2: supported: validated tiny/slow: 6 run(s) of the current source passed every check that ran: 2 seeds, "
expect_contains $o " timed launches, extra shape (latest "
expect_contains $o "$f:3: supported: faster base vs slow: speedup of base over slow "
expect_contains $o "$f:4: supported: slower slow vs base: speedup of slow over base 0."
expect_contains $o "$f:5: contradicted: faster slow vs base: "
expect_contains $o "verdict slower (Holm-adjusted over the sweep; runs "
expect_contains $o "$f:6: contradicted: no-difference slow vs base: "
expect_contains $o "$f:7: supported: value tiny/base n=$n: recorded $n, within the precision written"
expect_contains $o "$f:8: contradicted: value tiny/base n=25: recorded $n, outside the precision written"
expect_contains $o "$f:9: supported: measured-on tiny \"CPU\": 6 run(s) on CPU: "
expect_contains $o "$f:10: contradicted: measured-on tiny \"H100\": base ran on CPU: "
expect_contains $o 'audit: 9 claims: 5 supported, 4 contradicted, 0 stale, 0 unsupported'

# 3. the same source crashes in a later run: 'validated' and the comparisons are contradicted
run_tiny tiny-crash.yaml
n2=$(tiny_n)
sed -i "s/stat=n value=$n /stat=n value=$n2 /" $f
n=$n2
expect_exit 1 "$EVIDENT" audit $f
expect_contains $o "$f:2: contradicted: validated tiny/slow: 3 of 12 run(s) of the current source failed a check: run "
expect_contains $o ": crashed (worker "  # killed by SIGSEGV; under ASan the worker exits 1
expect_contains $o "$f:3: contradicted: faster base vs slow: slow did not run cleanly: crashed"
expect_contains $o "$f:7: supported: value tiny/base n=$n"

# 4. edit the kernel: claims the old runs back are stale; claims they
# contradict are still contradicted, and also stale
echo '/* edited after the runs */' >>kernels/tiny_attn.c
expect_exit 1 "$EVIDENT" audit $f
for l in 7 9; do expect_contains $o "$f:$l: stale: "; done
for l in 2 3 4 5 6 8 10; do
	expect_contains $o "$f:$l: contradicted: "
	grep "^$f:$l: " $o | grep -q "; also stale: 'kernels/tiny_attn.c' changed since run '.*'; rerun the experiment$" ||
		fail "line $l does not say it is also stale"
done
expect_contains $o "$f:7: stale: value tiny/base n=$n: 'kernels/tiny_attn.c' changed since run '"
expect_contains $o "; rerun the experiment (last batch "
expect_contains $o "; the old runs agreed: recorded $n, within the precision written"
expect_contains $o "$f:2: contradicted: validated tiny/slow: 3 of 12 run(s) of the last recorded code failed a check: run "
expect_contains $o "$f:5: contradicted: faster slow vs base: slow did not run cleanly: crashed"
expect_contains $o "$f:10: contradicted: measured-on tiny \"H100\": base ran on CPU: "
expect_contains $o 'audit: 9 claims: 0 supported, 7 contradicted, 2 stale, 0 unsupported'

# a claim that is all supported exits 0; -q hides supported findings
printf 'Timed on a CPU. <!-- claim: measured-on experiment=tiny gpu="CPU" run=%s -->\n' \
	"$(ls store/runs | grep -- -batch | head -1 | sed 's/.json$//')" >one.md
cp "$REPO/tests/fixtures/paper/kernels/tiny_attn.c" kernels/  # undo the edit
expect_exit 0 "$EVIDENT" audit -q one.md
expect_eq "$(cat "$TEST_TMP/out")" 'audit: 1 claim: 1 supported, 0 contradicted, 0 stale, 0 unsupported; 0 untraced numbers'
