# t0276 - red team 197 (tests/fixtures/adversary/host/redteam197/README.md):
# the author of a spec, with no code in any box, ran busy loops at nice 0
# only while a box of the baseline's object lived (its path is in the
# box's bubblewrap command line), the runner at nice 19: the runner's
# parent then waited on the run queue after each done line, its clock ran
# on, and an identical twin read "faster" 3.4x-9.5x in 4 of 4 batches
# (3 with no busy note), eval promoted it 3 of 3, the audit backed it.
# The host clock now reads the parent's own run-queue wait over each
# timed sample (/proc/thread-self/schedstat) beside the worker leader's,
# and a sample's work is its time less both (host_clock.c, job.c
# sample_work): the loaded side's work is the twin's, and rule 4b or 4c
# leaves the verdict inconclusive.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "busy loops on every CPU while the baseline runs"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
S=tests/fixtures/specs/host-redteam197-twinload.yaml
# a's object, which the loader looks for in the boxes' command lines
"$EVIDENT" run --no-progress --repeats 1 $S > first.out 2>&1 || fail "the spec did not run: $(tail -3 first.out)"
A=$(for r in artifacts/runs/*.json; do case $r in *-batch.json) continue ;; esac
	[ "$(jget "$r" 'd["variant"]')" = a ] && jget "$r" 'd["code"]["binary_sha256"][:16]' && break; done)
[ -n "$A" ] || fail "no run of a"
rm -rf artifacts
n=$(nproc 2>/dev/null || echo 2)
# in this session (a session of its own is an autogroup of its own where
# the kernel has them, which shares the CPUs with the runner's whatever
# the nice), its loops killed before it (stopped or running, they would
# outlive it)
python3 tests/fixtures/adversary/host/redteam197/loadref.py "$A" 120 "$n" duty2 > loader.out 2>&1 &
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
# the loader must have slowed the baseline well past the work rule's 1.5x
# margin (rule 4c), or the test shows nothing
awk -v s="$speedup" 'BEGIN { exit !(s > 2.5) }' ||
	skip "the loader did not slow the baseline here (b over a ${speedup}x, verdict $verdict)"
[ "$verdict" != faster ] || { cat out; fail "an identical twin read faster ${speedup}x while only the baseline waited for a CPU (work ratio $work)"; }
expect_match out '^b +ok .*inconclusive'
exit 0
