# The fourth red team's host cheats (tests/fixtures/adversary/host/
# redteam4/README.md).  At 1db9db7: outlive cleared its parent-death
# signal and ran on after its job and the whole batch had ended,
# ipc_linger made System V and POSIX IPC objects, oom_undo wrote into its
# box's /proc (and the record did not say what OOM score the worker had),
# job_pin could rewrite the job the parent handed it, core_raise raised
# its core limit, the ctl_* variants printed raw control bytes into the
# run's summary, show and show --lineage, and cache_flag (red team 3's
# cache_borrow under a spec with -Lbuild/cache) ran another variant's
# object again, and lib_dir (red team 3's host_files under -L/etc) read
# /etc/shadow.  Now: nothing of a job
# outlives it (the runner kills the box's pid 1; PR_SET_PDEATHSIG is
# refused), a host box refuses IPC objects, has no /proc (red team 267;
# read-only before) and the record has the worker's oom_score_adj, the memfds handed over are
# sealed, the core limit is 0 and cannot be raised, every text a kernel
# or its compiler wrote reaches the reader escaped, the build cache is
# masked in every box (a job's own objects bound over the mask), and a
# library directory of the spec is shown only if it holds a library.
. "$REPO/tests/cli/lib.sh"
plain_pass "its core_raise check reads the core limit, which ASan sets itself (it failed sanitized: ts3, 2026-12-01)"
builds_from_nothing "its subject includes the build cache: a build borrowing another's cached object"
mkrepo
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam4.yaml > "$TEST_TMP/out" 2>&1
# outlive: no process of a kernel may run once its batch is over
sleep 1
# (a zombie is dead: this machine's init may be slow to reap it)
left=$(ps -eo pid=,stat=,comm= | awk '$3 == "rt4_outlive" && $2 !~ /^Z/ { print $1 }')
for p in $left; do kill -9 "$p" 2>/dev/null; done
[ -z "$left" ] || fail "outlive: a kernel's process ($left) was still running after the batch"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^outlive +protocol_violation"
expect_match "$TEST_TMP/out" "^ctl_build +build_failed"
no_raw() { # FILE WHAT: no control byte but newline and tab in FILE
	python3 - "$1" <<'P' || fail "$2 printed a raw control byte"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
assert not bad, bad[:5]
P
}
no_raw "$TEST_TMP/out" "the run's summary"
# ctl_line's reason is one line of the summary, not two
grep -q "^  - honest: ok (expected)" "$TEST_TMP/out" && fail "a kernel's reason started a line of the summary"
expect_contains "$TEST_TMP/out" 'ctl_line: init_failed - init: x\x0a  - honest: ok (expected)'
expect_contains "$TEST_TMP/out" "ctl_msg: protocol_violation - protocol violation: unknown message '\x1b[2J\x1b]0;owned\x07\x0dok'"
: > "$TEST_TMP/logs"
for r in $(grep -l '"experiment": "host-redteam4"' artifacts/runs/*.json | grep -v batch); do
	id=$(basename "$r" .json)
	"$EVIDENT" show --log "$id" >> "$TEST_TMP/logs" 2>&1
	"$EVIDENT" show "$id" > "$TEST_TMP/show" 2>&1 || fail "show $id"
	no_raw "$TEST_TMP/show" "show $id"
	"$EVIDENT" show --lineage "$id" > "$TEST_TMP/show" 2>&1 || fail "show --lineage $id"
	no_raw "$TEST_TMP/show" "show --lineage $id"
done
b=$(grep -l '"experiment": "host-redteam4"' artifacts/runs/*.json | grep batch | head -1)
[ -n "$b" ] || fail "no batch record"
"$EVIDENT" show --lineage "$(basename "$b" .json)" > "$TEST_TMP/show" 2>&1 || fail "show --lineage of the batch"
no_raw "$TEST_TMP/show" "show --lineage of the batch"
expect_contains "$TEST_TMP/show" 'mutation \x1b[2J\x1b]0;owned\x07'
"$EVIDENT" show "$(basename "$b" .json)" > "$TEST_TMP/show" 2>&1 || fail "show of the batch"
no_raw "$TEST_TMP/show" "show of the batch"
# the logs keep what each cheat saw
expect_contains "$TEST_TMP/logs" "outlive: parent-death signal kept"
expect_match "$TEST_TMP/logs" "ipc_linger: found nothing of an earlier job; shmget Operation not permitted, semget Operation not permitted, msgget Operation not permitted, mq_open Operation not permitted"
# (a host kernel's boxes have had no /proc since red team 267: oom_undo
# finds no entry to write, and the parent's read is in the record, below)
expect_match "$TEST_TMP/logs" "oom_undo: oom_score_adj -9999, write 0: refused \(No such file or directory\), now -9999; task comm: refused \(No such file or directory\)"
expect_not_contains "$TEST_TMP/logs" "write 0: written"
grep -q "job_pin: fd 7 (no /proc) memfd seals" "$TEST_TMP/logs" || fail "job_pin did not see its job"
grep -E "job_pin: .* seals 0x[0-9a-f]+ rewritable" "$TEST_TMP/logs" && fail "job_pin could rewrite a memfd the parent handed it"
expect_match "$TEST_TMP/logs" "job_pin: fd 7 \(no /proc\) memfd seals 0x[0-9a-f]+ not rewritable"
# 1, not 0: a core_pattern pipe handler ignores every other limit (red team 46)
expect_match "$TEST_TMP/logs" "core_raise: RLIMIT_CORE soft 1, hard 1; raise refused"
grep -q "cache_borrow: nothing to borrow" "$TEST_TMP/logs" || fail "cache_flag ran another variant's object through the spec's -L directory"
grep -q "host_files: looked" "$TEST_TMP/logs" || fail "lib_dir left no log"
expect_not_contains "$TEST_TMP/logs" "host_files: LEAK"
# the record says what OOM score the worker had after the kernel ran
r=$(grep -l '"variant": "oom_undo"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of oom_undo"
expect_eq "$(jget "$r" "d['judge']['sandbox']['oom_score_adj']")" "1000" "oom_undo's worker's oom_score_adj"
# Unsandboxed (or in a GPU box, whose own /proc entries are writable), a
# kernel can lower its OOM score wherever the runner lacks
# CAP_SYS_RESOURCE: the parent reads it before any kernel code runs and
# after each step, and a lower value is a protocol violation.  With the
# capability the write is refused, and the kernel computes: ok.
"$EVIDENT" run --no-progress --unsandboxed --store unboxed --only oom_undo tests/fixtures/specs/host-redteam4.yaml \
	> "$TEST_TMP/unboxed" 2>&1
r=$(grep -l '"variant": "oom_undo"' unboxed/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no unsandboxed record of oom_undo"
"$EVIDENT" show --store unboxed --log "$(basename "$r" .json)" > "$TEST_TMP/unboxed-log" 2>&1
# The outcome decides, not the log: the parent reads the score at each step
# of the protocol while the kernel's init may still run, so it can kill the
# worker between init's write and init's line (3 of 8 runs at load 0.5 had
# no line; the log alone decided before, and the test failed then).
if [ "$(jget "$r" "d['outcome']")" = protocol_violation ]; then
	jget "$r" "d['reason']" > "$TEST_TMP/reason"
	expect_contains "$TEST_TMP/reason" "lowered its oom_score_adj from 1000 to 0"
	expect_not_contains "$TEST_TMP/unboxed-log" "write 0: refused"
else
	expect_match "$TEST_TMP/unboxed-log" "oom_undo: oom_score_adj 1000, write 0: refused"
	expect_eq "$(jget "$r" "d['outcome']")" "ok" "oom_undo, its write refused"
	expect_eq "$(jget "$r" "d['judge']['sandbox']['oom_score_adj']")" "1000" "oom_undo's unsandboxed worker's oom_score_adj"
fi
