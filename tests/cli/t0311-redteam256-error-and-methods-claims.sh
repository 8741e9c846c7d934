# t0311 - red team 256 (host/redteam256/README.md), three audit holes:
# row 1, "the largest error is 0" supported for a code whose every output
# was NaN and for one that wrote none (the checker leaves NaN and
# unwritten outputs out of max |err|; audit_value.c error_own_unbounded:
# unsupported now); row 3, a setting claim with no run= and no variant
# read the newest batch alone while an unpinned `validated fast8` read an
# older one run another way (8 seeds and 300 samples supported beside
# fast8's 1 seed, 3 of 3); row 4, measured-on read the newest batch alone
# (an Intel claim supported beside claims that read a batch recorded on
# another CPU, 3 of 3).  Rows 3 and 4 now cover every batch the file's
# other claims of the experiment read (audit_claim.c
# other_claims_batches).  Row 4's other CPU is red team 256's stand-in, a
# preloaded shim that shows the runner another /proc/cpuinfo model name.
# About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
export XDG_CACHE_HOME="$TEST_TMP/xdg"
D=tests/fixtures/adversary/host/redteam256
mkdir -p bin && ln -s "$EVIDENT" bin/evident || fail "bin/evident"
# row 1
EVIDENT_STORE=$TEST_TMP/e "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam256-err.yaml >run.out 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.out; fail "the error batch failed (exit $rc)"; }
"$EVIDENT" audit --store "$TEST_TMP/e" $D/claim-err.md >err.out 2>&1
cat err.out
expect_match err.out "claim-err.md:3: unsupported: value host-redteam256-err/allnan max_abs_err=0.0000000: no largest error: a check of run [^ ]+ left [0-9]+ NaN and 0 unwritten output"
expect_match err.out "claim-err.md:5: unsupported: value host-redteam256-err/nowrite max_abs_err=0.0000000: no largest error: a check of run [^ ]+ left 0 NaN and [0-9]+ unwritten output"
expect_match err.out "claim-err.md:7: contradicted: value host-redteam256-err/naive "
# row 3 (methods.sh edits the spec for batch 1 and puts it back)
sh $D/methods.sh "$TEST_TMP/s" >methods.out 2>&1
cat methods.out
expect_match methods.out "claim-methods.md:6: contradicted: setting host-redteam256-methods correctness.seeds=8: "
expect_match methods.out "claim-methods.md:7: contradicted: setting host-redteam256-methods timing.samples=300: "
expect_match methods.out "claim-methods.md:15: contradicted: setting host-redteam256-methods/fast8 correctness.seeds=8"
# row 4: batch 1 under another CPU model name, batch 2 (naive alone) here
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
[ -n "$model" ] || skip "/proc/cpuinfo names no model here"
command -v gcc >/dev/null 2>&1 || skip "gcc is not installed (the CPU stand-in's shim)"
sed 's/^model name.*/model name\t: Stand-in CPU 9999/' /proc/cpuinfo > cpuinfo.fake
gcc -shared -fPIC -O2 -o shim.so $D/cpuinfo_shim.c -ldl || fail "the shim did not build"
S=tests/fixtures/specs/host-redteam256-methods.yaml
EVIDENT_STORE=$TEST_TMP/d RT256_CPUINFO=$PWD/cpuinfo.fake env LD_PRELOAD=$PWD/shim.so "$EVIDENT" run --no-progress "$S" >d1.out 2>&1 ||
	{ cat d1.out; fail "batch 1 (the stand-in) failed"; }
grep -q "Stand-in CPU 9999" "$TEST_TMP"/d/runs/*.json || skip "the shim did not change the recorded CPU here"
EVIDENT_STORE=$TEST_TMP/d "$EVIDENT" run --no-progress --only naive "$S" >d2.out 2>&1 || { cat d2.out; fail "batch 2 failed"; }
cat > dev.md <<C
Every run was on this CPU. <!-- claim: measured-on experiment=host-redteam256-methods gpu="$model" -->

fast8 passes every check. <!-- claim: validated experiment=host-redteam256-methods variant=fast8 -->
C
"$EVIDENT" audit --store "$TEST_TMP/d" dev.md >dev.out 2>&1
cat dev.out
expect_match dev.out "dev.md:1: contradicted: measured-on host-redteam256-methods \".*\": (naive|fast8) ran on CPU: Stand-in CPU 9999 "
exit 0
