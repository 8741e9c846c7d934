# t0273 - red team 189 (tests/fixtures/adversary/host/redteam189/README.md):
# state of the runner's process that reached a boxed kernel unhashed, and a
# row that was one job only by its first run.
# 1. The UTS names: a box unshares UTS, and the new namespace was a copy of
#    the runner's, so a root wrapper's host name (unshare -u, sethostname)
#    reached the kernel by uname().  Now every box is named "evident"
#    (sandbox.c push_namespaces) and the worker's own hash reads uname
#    (worker.c worker_self_hash): the wrapped run's box is the plain run's.
# 2. A custom fair-class time slice (sched_setattr's runtime, any user,
#    Linux 6.12+) survived runcmd.c's sched_setscheduler; the kernel read
#    se.slice.  Now the boxed child resets the scheduling attributes
#    (runcmd.c sched_reset) and the worker's hash reads sched_getattr.
# 3. A row's identity was its first timed run's and its speed the median
#    of all its runs: re-pinning the runner after run 1 made a row of the
#    eval's job whose median was another program's.  Its runs' job hashes
#    now have to agree (code_identity.c code_row_one_job) for it to be
#    anyone's history; the unit test test_code_same_history has the rule,
#    and this test the records' side: a batch re-pinned between runs
#    keeps two jobs in one row.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
S=tests/fixtures/specs
F=tests/fixtures/adversary/host/redteam189
self_of() { # the one box_self_sha256 of the records of batch $1's runs
	python3 -S - "$1" artifacts/runs/*.json <<'PY'
import json, sys
b = sys.argv[1]
seen = set()
for f in sys.argv[2:]:
    if f.endswith("-batch.json"):
        continue
    r = json.load(open(f))
    if r.get("batch_id") != b:
        continue
    seen.add(r["settings"].get("box_self_sha256"))
assert len(seen) == 1, seen
print(seen.pop())
PY
}
run_of() { # the run of batch $1 (one repeat: one run)
	grep -l "\"batch_id\": \"$1\"" artifacts/runs/*.json | grep -v -- -batch.json | head -1 | sed 's#.*/##; s/\.json$//'
}
batch_of() { sed -n 's/^records: .* and batch \([^ ]*\) in .*/\1/p' "$1"; }

expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 $S/host-redteam189-inhtag.yaml
B0=$(batch_of "$TEST_TMP/out")
[ -n "$B0" ] || fail "no batch id"
H0=$(self_of "$B0") || fail "the plain batch's runs do not agree on box_self_sha256"
"$EVIDENT" show --log "$(run_of "$B0")" > log0 2>&1 ||
	fail "show --log"
expect_contains log0 "uts 'evident'"
expect_contains log0 ": slow"

# 1. a root wrapper's host name
if [ "$(id -u)" -ne 0 ]; then
	echo "note: not root: the UTS half is not run (unshare -u needs root)"
elif ! python3 -S -c 'import ctypes,sys; l=ctypes.CDLL(None); sys.exit(l.unshare(0x04000000) != 0)'; then
	echo "note: unshare(CLONE_NEWUTS) refused here: the UTS half is not run"
else
	expect_exit 0 python3 -S $F/wrap.py uts "$EVIDENT" run --no-progress --repeats 1 $S/host-redteam189-inhtag.yaml
	B1=$(batch_of "$TEST_TMP/out")
	H1=$(self_of "$B1") || fail "the wrapped batch's runs do not agree on box_self_sha256"
	expect_eq "$H1" "$H0"
	"$EVIDENT" show --log "$(run_of "$B1")" > log1 2>&1 || fail "show --log"
	expect_contains log1 "uts 'evident'"
	expect_not_contains log1 "rt189fast"
	expect_contains log1 ": slow"
fi

# 2. a custom time slice on the runner
if ! python3 -S -c '
import ctypes, struct, sys
l = ctypes.CDLL(None, use_errno=True)
b = ctypes.create_string_buffer(struct.pack("IIQiIQQQII", 56, 0, 0, 0, 0, 3000000, 0, 0, 0, 0))
sys.exit(l.syscall(314, 0, b, 0) != 0)'; then
	echo "note: sched_setattr with a custom slice refused here (before Linux 6.12?): the slice half is not run"
else
	# slicetag logs the se.slice it reads
	expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 $S/host-redteam189-slicetag.yaml
	B2=$(batch_of "$TEST_TMP/out")
	"$EVIDENT" show --log "$(run_of "$B2")" > log2 2>&1 || fail "show --log"
	# (wrap.py slice's, at the runner's own nice value: sched_setattr
	# sets it too, and a root runner under `nice` went back to 0)
	expect_exit 0 python3 -S -c '
import ctypes, os, struct, sys
l = ctypes.CDLL(None, use_errno=True)
b = ctypes.create_string_buffer(struct.pack("IIQiIQQQII", 56, 0, 0, os.getpriority(os.PRIO_PROCESS, 0), 0, 3000000, 0, 0, 0, 0))
if l.syscall(314, 0, b, 0) != 0:
    sys.exit("sched_setattr failed")
os.execvp(sys.argv[1], sys.argv[1:])' "$EVIDENT" run --no-progress --repeats 1 $S/host-redteam189-slicetag.yaml
	B3=$(batch_of "$TEST_TMP/out")
	"$EVIDENT" show --log "$(run_of "$B3")" > log3 2>&1 || fail "show --log"
	expect_eq "$(grep -o 'se.slice [0-9.]* ms' log3)" "$(grep -o 'se.slice [0-9.]* ms' log2)"
	expect_contains log3 ": slow"
	H2=$(self_of "$B2") && H3=$(self_of "$B3") || fail "a batch's runs do not agree on box_self_sha256"
	expect_eq "$H3" "$H2"
fi

# 3. re-pinned between runs: the row's runs keep two jobs, and eval takes
# none of them for history (one CPU is enough to pin to; the re-pin is
# skipped with fewer than two)
if [ "$(nproc)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "note: one CPU or no taskset: the re-pin half is not run"
else
	# midbatch.sh's steps with this test's runner: re-pin it (every
	# thread) to one CPU once its first run record has landed
	EVIDENT_STORE=$TEST_TMP/mid "$EVIDENT" run --no-progress $S/host-redteam189-midtag-side.yaml > mid.log 2>&1 &
	pid=$! pinned=
	while kill -0 $pid 2>/dev/null; do
		if ls "$TEST_TMP/mid/runs" 2>/dev/null | grep -qv -- -batch; then
			taskset -a -p -c 1 $pid >/dev/null && pinned=1
			break
		fi
		sleep 0.02
	done
	wait $pid || fail "the side batch failed: $(tail -3 mid.log)"
	[ -n "$pinned" ] || fail "the runner was not re-pinned"
	python3 -S - "$TEST_TMP"/mid/runs/*.json <<'PY' || fail "the re-pinned batch does not keep two CPU sets"
import json, sys
cpus = set()
for f in sys.argv[1:]:
    if not f.endswith("-batch.json"):
        cpus.add(json.load(open(f))["settings"]["cpus"])
assert len(cpus) == 2, cpus
PY
	"$EVIDENT" eval --reference d --repeats 2 --no-progress $S/host-redteam189-midtag.yaml \
		< tests/fixtures/adversary/host/redteam180/eval-honest.jsonl > e.out 2>&1 ||
		fail "eval failed: $(tail -3 e.out)"
	# whatever this machine's load makes of the challenger, the
	# re-pinned batch is no history of d
	expect_not_contains e.out "midtag-side"
fi
