# t0278 - red team 202 (tests/fixtures/adversary/host/redteam202/README.md):
# red team 197's loader narrowed to the baseline's HELPER thread.  The
# baseline (pool_a.c) sums half the rows in its leader and half in a
# helper thread; the author's process, outside every box, moved the
# baseline's helper onto CPU 1 and ran a SCHED_FIFO loop there only while
# the baseline's box lived.  The leader and the parent never waited (the
# waits the work measure took off since red team 197), the helper did,
# and pool_b.c, the same code under another name, read faster 2.7x-3.7x
# in 5 of 5 batches; eval promoted it 2 of 2.  Now the work takes off
# every thread's run-queue wait too (each at most its own time off its
# CPU, the sum at most the time the worker's CPU did not fill its CPUs:
# host_clock.c threads_credit, host_clock_waited), and rule 4b or 4c
# leaves the verdict inconclusive.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "a loop on the baseline's helper's CPU while it runs"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ "$(id -u)" = 0 ] || skip "the loader moves another process's threads and runs SCHED_FIFO: root only"
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] || skip "the loader needs CPUs 0 and 1"
mkrepo
S=tests/fixtures/specs/host-redteam202-poolload.yaml
"$EVIDENT" run --no-progress --repeats 1 $S > first.out 2>&1 || fail "the spec did not run: $(tail -3 first.out)"
A=$(for r in artifacts/runs/*.json; do case $r in *-batch.json) continue ;; esac
	[ "$(jget "$r" 'd["variant"]')" = a ] && jget "$r" 'd["code"]["binary_sha256"][:16]' && break; done)
[ -n "$A" ] || fail "no run of a"
rm -rf artifacts
# in this session (see t0276); its loop killed before it
python3 tests/fixtures/adversary/host/redteam202/loadhelper.py "$A" 120 fifo > loader.out 2>&1 &
loader=$!
unload() { pkill -KILL -P $loader 2>/dev/null; kill -KILL $loader 2>/dev/null; }
trap unload EXIT
sleep 0.5
nice -n 19 "$EVIDENT" run --no-progress $S > out 2>&1
rc=$?
unload
[ $rc -eq 0 ] || fail "the spec's outcomes are not its expect: $(tail -5 out)"
B=$(ls artifacts/runs/*-batch.json | head -1)
python3 -S - "$B" > verdict <<'P' || fail "reading the batch: $(cat verdict)"
import json, sys
b = json.load(open(sys.argv[1]))
rows = {v["variant"]: v for v in b["variants"]}
c = rows["b"]["comparison"]
sp = c.get("speedup")
print(c["verdict"], sp["ratio"] if isinstance(sp, dict) else sp, (c.get("work_means") or {}).get("ratio"))
P
read -r verdict speedup work < verdict
# (well past rule 4c's 1.5x margin, or the test shows nothing)
awk -v s="$speedup" 'BEGIN { exit !(s > 2.5) }' ||
	skip "the loader did not slow the baseline here (b over a ${speedup}x, verdict $verdict)"
[ "$verdict" != faster ] || { cat out; fail "an identical twin read faster ${speedup}x while only the baseline's helper waited for a CPU (work ratio $work)"; }
exit 0
