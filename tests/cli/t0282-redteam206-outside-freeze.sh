# t0282 - red team 206 (tests/fixtures/adversary/host/redteam206/README.md):
# an outside process (root, no code in any box) moved the baseline's worker
# into a freezer cgroup of its own and froze it for 3 ms inside each
# sample.  A frozen thread neither runs nor waits on a run queue, so the
# work measure (the time less the threads' and the parent's waits) counted
# the freeze as work and agreed with the slowed wall: b, a's code under
# another name, read faster 4.1x in 3 of 3 batches, eval promoted 3 of 3.
# Now the parent checks each sample that the worker's threads are still in
# the runner's own cgroups (the box shows no cgroup file system, so a move
# is from outside): the frozen baseline is a protocol_violation naming the
# move, and b has no baseline to be faster than.
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
CG=/sys/fs/cgroup/freezer/rt206-$loader
# the loader killed, its cgroup thawed, emptied and removed
unload() {
	kill -KILL $loader 2>/dev/null; wait $loader 2>/dev/null
	if [ -d "$CG" ]; then
		echo THAWED > "$CG/freezer.state" 2>/dev/null
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do echo "$p" > /sys/fs/cgroup/freezer/cgroup.procs; done
		rmdir "$CG" 2>/dev/null
	fi
}
trap unload EXIT
sleep 0.3
nice -n 19 "$EVIDENT" run --no-progress $S > out 2>&1
unload
if grep -qE "a: protocol_violation.*moved into another cgroup during its samples" out; then
	! grep -qE "^b .* faster *$" out || { cat out; fail "b read faster than its own code frozen from outside"; }
	exit 0
fi
grep -qE "^b .* faster *$" out && { cat out; fail "b read faster while a was frozen from outside, and no move was seen"; }
skip "the freezer did not act here: $(grep -E '^[ab] ' out | tr -s ' ' | cut -c1-80 | tr '\n' ';')"
