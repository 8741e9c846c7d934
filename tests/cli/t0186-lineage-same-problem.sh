# t0186 - a lineage's ancestor speaks only for its own problem, shape,
# device and clock (red team 76's lineage): an eval candidate's free-text
# `parent` named a run at another shape (S=8, 341.6 us); a search started
# from that candidate (its spec's lineage.parent) then held its 3.88x
# g0c0 (4125 us) as "not faster than an earlier best of its lineage".
# Now the ancestor at another shape is passed over and g0c0 is promoted
# and confirmed.  The speeds are sleeps (tests/fixtures/host/sleepy.c:
# 16 ms against 4 ms), which load does not turn around.
. "$REPO/tests/cli/lib.sh"
runs_alone "the selection rests on verdicts between sleeps of 16 and 4 ms"
mkrepo
sp=tests/fixtures/specs
expect_exit 0 "$EVIDENT" run --no-progress $sp/host-redteam76-tiny.yaml
tiny=$(ls artifacts/runs | grep -- "-host-redteam76-tiny-" | grep -v -- "-batch" | head -1 | sed 's/\.json$//')
[ -n "$tiny" ] || fail "no tiny run"
printf '{"name": "half", "params": {"SLEEP_US": 16000}, "parent": "%s"}\n' "$tiny" > cand.jsonl
sed 's/^repeats: 4/repeats: 2/' $sp/host-redteam76-evalref.yaml > experiments/ref.yaml
"$EVIDENT" eval --no-progress experiments/ref.yaml < cand.jsonl > ans 2> err || { cat ans err; fail "eval exited $?"; }
crun=$(python3 -S -c 'import json,sys; a=json.loads(open(sys.argv[1]).readline()); print(a["runs"][0]["run"])' ans) ||
	{ cat ans; fail "no candidate run"; }
# the search at 3 repeats, not 2: at 2 (a CI of one degree of freedom)
# g0c0 was 3.676x [2.244, 4.296] p 0.27 "inconclusive" with one slow
# process (max 7970 us against 4114), and the test failed in 2 of 3
# alone-phase runs beside t0066 and t0071 (load 3-4, 2026-12-01; once on
# 2026-11-30 too)
# and at 3 it failed in 2 of 3 full make test runs on 2026-12-01 at load
# 2.5-3.5 (g0c0 3.5x and 3.9x inconclusive, one process of the 4 ms
# sleeper at 9.7 ms): the spec's own 4 repeats now
sed -e "s/PARENT_RUN/$crun/" $sp/host-redteam76-lin.yaml > experiments/lin.yaml
grep -q '^repeats: 4$' experiments/lin.yaml || fail "lin.yaml: no repeats: 4"
"$EVIDENT" run --no-progress experiments/lin.yaml > lin.out 2>&1 || { cat lin.out; fail "search exited $?"; }
grep -q "not faster than an earlier best of its lineage" lin.out && { cat lin.out; fail "an ancestor at another shape held the search"; }
# a generation whose own batch read g0c0 inconclusive never reached the
# lineage rule: the CI of 236515a24 ran beside a red team at load 7, and
# g0c0 read 3.884x inconclusive there (as t0204, t0207 and t0215 skip)
if ! grep -q "generation 0: g0c0 promoted" lin.out && grep -qE "^ +g0c0 .* inconclusive" lin.out; then
	skip "g0c0 read inconclusive in its generation's batch at load $(cut -d' ' -f1 /proc/loadavg): the lineage rule was not reached"
fi
grep -q "generation 0: g0c0 promoted: faster than base" lin.out && grep -q "confirmed in fresh processes" lin.out ||
	{ cat lin.out; fail "g0c0 was not promoted and confirmed"; }
true
