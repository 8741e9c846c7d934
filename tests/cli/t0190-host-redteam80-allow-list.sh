# t0190 - a host box's seccomp filter is an allow list, and the runner's
# loginuid is set before its first box (red team 80).  Before: every
# rename() on the host takes the next value of one host-wide counter (the
# fsnotify rename cookie), and an inotify watch on the box's own /tmp
# read it: rename_count kept an exact run count there across boxes, 8x
# slow from its third process (b 0.084x), and eval promoted copies of its
# own code 4 of 4; sysinfo() read the host's load and thread count; and
# where the runner's loginuid was unset a box whose /proc entries are
# writable (a GPU box) set its own and read the host's audit session
# counter.  Now inotify, sysinfo and every call no honest host worker
# makes fail (EPERM) in a host box: every process of b reads no count
# (count -1) and runs fast, each run ok; the probe's sysinfo fails; the
# box's loginuid is set (the runner's), so it can take no session id.
# The check is of the kernels' own log lines, not of a timing.
. "$REPO/tests/cli/lib.sh"
mkrepo
sed -e 's/^repeats: 6/repeats: 2/' -e 's/samples: 30/samples: 5/' \
	tests/fixtures/specs/host-redteam80-rename.yaml > experiments/rename.yaml
grep -q '^repeats: 2' experiments/rename.yaml || fail "sed rename.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/rename.yaml
expect_match "$TEST_TMP/out" '^ +- b: ok \(expected\)'
runs=$(ls artifacts/runs | grep -- '-host-redteam80-rename-' | grep -v -- -batch | sed 's/\.json$//')
[ "$(echo "$runs" | wc -w)" = 4 ] || fail "expected 4 runs, got: $runs"
for run in $runs; do
	"$EVIDENT" show --log "$run" > log 2>&1
	grep -q "rt80 rename_count: " log || { cat log; fail "$run: no rename_count line"; }
	if grep "rt80 rename_count: " log | grep -qv ", count -1, fast"; then
		cat log
		fail "$run: a box read the host's rename cookie (inotify allowed)"
	fi
	jexpect "artifacts/runs/$run.json" <<'E'
d['outcome'] => ok
d['judge']['sandbox']['loginuid'] != '' => True
E
done
# the probe: sysinfo refused; the box's loginuid is set, its write refused
sed -e 's/^repeats: 3/repeats: 1/' tests/fixtures/specs/host-redteam80-probe.yaml > experiments/probe.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/probe.yaml
run=$(ls artifacts/runs | grep -- '-host-redteam80-probe-' | grep -v -- -batch | head -1 | sed 's/\.json$//')
"$EVIDENT" show --log "$run" > probe.log 2>&1
expect_contains probe.log "rt80 host_probe: sysinfo errno 1"
expect_contains probe.log "rt80 host_probe: rename cookie 0, after 1000 renames 0"
expect_not_contains probe.log "loginuid 4294967295"
expect_not_contains probe.log "set loginuid: ok"
