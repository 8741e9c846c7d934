# t0282 - red team 206 (tests/fixtures/adversary/host/redteam206/README.md):
# an outside process (root, no code in any box) moved the baseline's worker
# into a freezer cgroup of its own and froze it for 3 ms inside each
# sample.  A frozen thread neither runs nor waits on a run queue, so the
# work measure (the time less the threads' and the parent's waits) counted
# the freeze as work and agreed with the slowed wall: b, a's code under
# another name, read faster 4.1x in 3 of 3 batches, eval promoted 3 of 3.
# Now the work also leaves out the least time a thread known at the go
# neither ran nor waited to (host_clock.c threads_credit idle_us), and
# rule 4b or 4c leaves the verdict inconclusive.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "an outside freezer on the baseline's worker while it runs"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ "$(id -u)" = 0 ] || skip "the loader makes a freezer cgroup: root only"
[ -w /sys/fs/cgroup/freezer/cgroup.procs ] || skip "no cgroup v1 freezer at /sys/fs/cgroup/freezer"
mkrepo
S=tests/fixtures/specs/host-redteam206-twinstop.yaml
"$EVIDENT" run --no-progress --repeats 1 $S > first.out 2>&1 || fail "the spec did not run: $(tail -3 first.out)"
A=$(for r in artifacts/runs/*.json; do case $r in *-batch.json) continue ;; esac
	[ "$(jget "$r" 'd["variant"]')" = a ] && jget "$r" 'd["code"]["binary_sha256"][:16]' && break; done)
[ -n "$A" ] || fail "no run of a"
rm -rf artifacts
python3 tests/fixtures/adversary/host/redteam206/freezeref.py "$A" 120 3 1 100 > loader.out 2>&1 &
loader=$!
unload() { kill $loader 2>/dev/null; wait $loader 2>/dev/null; }
trap unload EXIT
sleep 0.3
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
echo "b over a: ${speedup}x, work ratio $work, verdict $verdict"
awk -v s="$speedup" 'BEGIN { exit !(s > 2.5) }' ||
	skip "the freezer did not slow the baseline here (b over a ${speedup}x, verdict $verdict)"
[ "$verdict" != faster ] || { cat out; fail "an identical twin read faster ${speedup}x while only the baseline was frozen from outside (work ratio $work)"; }
exit 0
