# t0247: the boxes' maker is verified, and the box's filter read back
# (red team 133).  Four stand-ins for bubblewrap, each exec'ing the real
# one with one thing changed, passed every observation of the box: an
# extra descriptor of the host's / (a run count 1, 2, 3; the store's begun
# markers read), a /tmp that outlives the box (1, 2, 3), the kernel
# object's descriptor swapped for another's (passes4 ok at 0.937x, 0.291x
# honestly), evident's program with `allow fork` in front (forkraw ok,
# 7.106x faster, every probe answered as evident's).  Now:
#  - the runner accepts as bubblewrap only the Debian package's
#    /usr/bin/bwrap as dpkg lists it, or the dist's as make dist recorded
#    it (src/base/sandbox_tool.c); any other is refused before it runs,
#    unless EVIDENT_BWRAP_UNVERIFIED=1, and then every record says so and
#    no claim counts it (store/query.c run_weakly_judged);
#  - each worker's descriptors and kernel object are looked at from
#    outside at its hello (/proc/PID/fd, /proc/PID/root): a descriptor the
#    spawn did not pass, an object that is not the built file, is refused
#    (fdpass and swapobj, let run: exit 6);
#  - where the runner may trace its boxes (root here and on the GPU hosts),
#    each worker's filter is read back from its process at its hello
#    (PTRACE_SECCOMP_GET_FILTER: src/base/sandbox_readback.c): the
#    forkgap stand-in, let run by the variable, is refused (exit 6),
#    nothing recorded, forkraw never run.
# Before: every stand-in ran (exit 0), its records described the real box.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
mkrepo
D=$PWD/tests/fixtures/adversary/host/redteam133
S=tests/fixtures/specs/tiny.yaml
norecords() { [ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from $1: $(ls artifacts/runs)"; }
recs() { ls artifacts/runs/*.json 2>/dev/null | grep -v -- '-batch.json$'; }

# 1. a stand-in that only passes its arguments on: refused before it ran
printf '#!/bin/sh\necho ran >>"%s"\nexec /usr/bin/bwrap "$@"\n' "$TEST_TMP/ran" >"$TEST_TMP/bwrap-pass"
chmod +x "$TEST_TMP/bwrap-pass"
EVIDENT_BWRAP=$TEST_TMP/bwrap-pass expect_exit 3 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "bubblewrap '$TEST_TMP/bwrap-pass' is not one this runner can verify: '$TEST_TMP/bwrap-pass' is neither the Debian package's /usr/bin/bwrap (as dpkg lists it) nor the one evident's dist ships beside the runner"
expect_contains "$TEST_TMP/err" "EVIDENT_BWRAP_UNVERIFIED=1 runs it anyway, and no claim counts those records"
[ ! -e "$TEST_TMP/ran" ] || fail "the stand-in ran before it was refused"
norecords "an unverified bubblewrap"

# 2. the real one: every record says how it was verified
expect_exit 0 "$EVIDENT" run --no-progress "$S"
for R in $(recs); do
	expect_match "$R" "\"binary_verified\": \"the Debian package bubblewrap's /usr/bin/bwrap: its MD5 [0-9a-f]{32} is the one dpkg lists"
done
printf 'x <!-- claim: validated experiment=tiny variant=blocked -->\n' >"$TEST_TMP/c.md"
expect_exit 0 "$EVIDENT" audit --no-untraced "$TEST_TMP/c.md"
expect_contains "$TEST_TMP/out" "audit: 1 claim: 1 supported"
READY=$(jget "$(recs | head -1)" 'isinstance(d["judge"]["sandbox"]["filter_readback"], str)')

# 3. the pass-through stand-in let run: its records say so, no claim counts them
rm -rf artifacts
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-pass expect_exit 0 "$EVIDENT" run --no-progress "$S"
[ -e "$TEST_TMP/ran" ] || fail "the stand-in never ran"
for R in $(recs); do
	expect_eq "$(jget "$R" 'd["judge"]["sandbox"]["binary_verified"]["done"]')" no "$R: binary_verified"
	expect_match "$R" "EVIDENT_BWRAP_UNVERIFIED=1 let it make the boxes: '$TEST_TMP/bwrap-pass' is neither"
done
"$EVIDENT" audit --no-untraced "$TEST_TMP/c.md" >"$TEST_TMP/a3" 2>&1
expect_not_contains "$TEST_TMP/a3" "1 supported"

# 4. forkgap (evident's program, `allow 57` in front) let run: its filter
# read back is not the program (where this runner can trace its boxes)
if [ "$READY" = True ]; then
	rm -rf artifacts
	EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-forkgap expect_exit 6 "$EVIDENT" run --no-progress --only fork tests/fixtures/specs/host-redteam133-forkgap.yaml
	expect_contains "$TEST_TMP/err" "made: its seccomp filter after the runner's own is not the program the runner handed it"
	expect_contains "$TEST_TMP/err" "the first difference at instruction 0 (read back from the worker's process with PTRACE_SECCOMP_GET_FILTER before any kernel code loaded)"
	norecords "the forkgap stand-in"
else
	echo "note: this runner cannot read a box's filter back (judge.sandbox.filter_readback); forkgap not tried"
fi
# 4b. fdpass (the host's / handed to the box as fd 100) let run: the
# box's descriptors, looked at from outside at the hello, are refused
rm -rf artifacts
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-fdpass expect_exit 6 "$EVIDENT" run --no-progress --only naive "$S"
expect_contains "$TEST_TMP/err" "made hands its worker descriptors the runner did not pass: 100 (/) (looked at from outside"
norecords "the fdpass stand-in"

# 4c. swapobj (the kernel object's descriptor swapped for another
# kernel's) let run: the object in the box, read from outside at the
# hello, is not the built file: refused
rm -rf artifacts
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/cache1" tests/fixtures/specs/host-redteam133-swapobj-build1.yaml
P1=$(grep -rl rt133_passes "$TEST_TMP/cache1" --include=kernel.so | head -1)
[ -n "$P1" ] || fail "passes1's object was not built"
rm -rf artifacts
EVIDENT_RT133_SWAP=$P1 EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-swapobj expect_exit 6 "$EVIDENT" run --no-progress --repeats 1 --only passes4 tests/fixtures/specs/host-redteam133-swapobj.yaml
expect_contains "$TEST_TMP/err" "made shows its worker another kernel object than the runner built: "
# (the baseline, naive, may have run before: the order is random)
! grep -l '"variant": "passes4"' artifacts/runs/*.json >/dev/null 2>&1 || fail "passes4 was recorded from the swapped box"

# 5. bubblewrap's own environment has no LD_LIBRARY_PATH (the verified
# binary would load its libraries by it); the box's processes get it
# from inside (--setenv)
printf '#!/bin/sh\nenv >"%s"\nprintf "%%s\\n" "$@" >"%s"\nexec /usr/bin/bwrap "$@"\n' "$TEST_TMP/env.txt" "$TEST_TMP/args.txt" >"$TEST_TMP/bwrap-env"
chmod +x "$TEST_TMP/bwrap-env"
mkdir -p "$TEST_TMP/nolib"
rm -rf artifacts
LD_LIBRARY_PATH=$TEST_TMP/nolib EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-env expect_exit 0 "$EVIDENT" run --no-progress --only naive "$S"
expect_not_contains "$TEST_TMP/env.txt" "LD_LIBRARY_PATH="
grep -qxF -- "$TEST_TMP/nolib" "$TEST_TMP/args.txt" || fail "the box's LD_LIBRARY_PATH was not set inside it"
exit 0
