# t0241: the box is observed, not described (red team 131).  EVIDENT_BWRAP
# may name any executable as bubblewrap; red team 131's bwrap-noseccomp
# runs the real one without `--seccomp FD`, so every box was made without
# its filter, and forkprobe.c's init() forked where the filter refuses it:
# ok, with a record that described the filtered box.  Now each worker's
# hello says what its own /proc/self/status shows before any kernel code
# loads (Seccomp, Seccomp_filters, NoNewPrivs), the runner sees the box's
# pid 1 in a PID namespace below its own, and the run stops, naming the
# tool, with nothing recorded; a stand-in that drops --unshare-pid is
# refused the same way.  --unsandboxed still runs and says so; the real box
# runs, and its record names the binary's real path and sha256.
. "$REPO/tests/cli/lib.sh"
# the stand-ins are not a bubblewrap the runner can verify (sandbox_tool.c):
# let them make the boxes, as a user may, to test what the box shows
export EVIDENT_BWRAP_UNVERIFIED=1
command -v bwrap >/dev/null 2>&1 || [ -x "$(dirname "$EVIDENT")/bwrap" ] ||
	fail "bubblewrap is not installed (scripts/deps.sh installs it; make dist puts it beside evident)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
D=tests/fixtures/adversary/host/redteam131
S=tests/fixtures/specs/host-redteam131-nofilter.yaml
real=$(command -v bwrap || echo "$(dirname "$EVIDENT")/bwrap")

# the stand-in without the filter: refused, nothing recorded
EVIDENT_BWRAP=$PWD/$D/bwrap-noseccomp RT131_REAL_BWRAP=$real expect_exit 6 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$PWD/$D/bwrap-noseccomp' made shows no seccomp filter"
expect_contains "$TEST_TMP/err" "the worker read its own /proc/self/status before any kernel code loaded"
expect_contains "$TEST_TMP/err" "or pass --unsandboxed (the record will say so)"
[ -z "$(ls artifacts/runs 2>/dev/null | grep -- '-batch.json$')" ] || fail "a batch was recorded from the unfiltered box"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the unfiltered box: $(ls artifacts/runs)"

# a stand-in without the PID namespace: refused too
sed 's/if a\[i\] == "--seccomp":/if a[i] in ("--unshare-pid", "--as-pid-1"):\n        i += 1\n        continue\n    if a[i] == "--seccomp-kept":/' \
	"$D/bwrap-noseccomp" >"$TEST_TMP/bwrap-nopid" && chmod +x "$TEST_TMP/bwrap-nopid" || fail "the no-pid stand-in"
EVIDENT_BWRAP=$TEST_TMP/bwrap-nopid RT131_REAL_BWRAP=$real expect_exit 6 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "error: the box that bubblewrap '$TEST_TMP/bwrap-nopid' made has no PID namespace of its own"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded from the box without a PID namespace"

# --unsandboxed: the stand-in is not used, the record says tool none
EVIDENT_BWRAP=$PWD/$D/bwrap-noseccomp expect_exit 0 "$EVIDENT" run --no-progress --unsandboxed --only naive "$S"
R=$(ls artifacts/runs | grep -v -- '-batch.json$' | head -1)
expect_eq "$(jget "artifacts/runs/$R" 'd["judge"]["sandbox"]["tool"]')" none "the unsandboxed run's tool"

# the real box: fork refused (init_failed, as expected), naive ok; the
# record names the binary and its hash
rm -rf artifacts
expect_exit 0 "$EVIDENT" run --no-progress "$S"
for R in $(ls artifacts/runs | grep -v -- '-batch.json$'); do
	expect_eq "$(jget "artifacts/runs/$R" 'd["judge"]["sandbox"]["binary"]')" "$(readlink -f "$real")" "the box's binary"
	expect_eq "$(jget "artifacts/runs/$R" 'd["judge"]["sandbox"]["binary_sha256"]')" \
		"$(sha256sum "$(readlink -f "$real")" | cut -d' ' -f1)" "the box's binary's sha256"
	expect_match "artifacts/runs/$R" '"observed": "every worker read its own /proc/self/status before its kernel loaded'
done
B=$(ls artifacts/runs | grep -- '-batch.json$')
expect_eq "$(jget "artifacts/runs/$B" '[v["outcome"] for v in d["variants"]]')" "['ok', 'init_failed']" "the real box's outcomes"
