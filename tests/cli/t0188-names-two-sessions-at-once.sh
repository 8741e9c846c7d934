# t0188 - two sessions started together cannot both take one name (red
# team 76's race).  An eval candidate's name was checked against the
# store before its batch ran, and the batch recorded its runs later: two
# eval sessions that both named their candidate `fast`, started together,
# both passed the check, and `validated fast` read the other's runs as
# its own (race.sh: "4 of 16 run(s) of the current source failed a
# check").  Two searches of one spec started together named their
# candidates g0c0, g0c1 alike for other code the same way.  Now the check
# and a claim of the name are one step under the store's names lock
# (pending/names/), the claim lives until the batch is recorded: the
# second eval session is refused as a serial one is ("is taken in this
# experiment's store by other code"), and the second search suffixes its
# names (g0c1-2).  Both sessions of a kind are opened first and then
# given their go at once (FIFOs, a file), so the check of each lands inside
# the other's window (both judged, and two codes under `fast`, before).
. "$REPO/tests/cli/lib.sh"
mkrepo
sed -e 's/^repeats: 4/repeats: 2/' tests/fixtures/specs/host-redteam76-evalref.yaml > experiments/ev.yaml
grep -q '^repeats: 2' experiments/ev.yaml || fail "sed evalref.yaml"
# one code per name in the experiment's runs
one_code() {
	python3 - "$1" "$EVIDENT_STORE"/runs/*.json <<'PY'
import json, sys
exp = sys.argv[1]
code = {}
for p in sys.argv[2:]:
    r = json.load(open(p))
    if r.get("kind") in ("batch", "search") or r.get("experiment") != exp or "variant" not in r:
        continue
    src = {s["path"]: s["sha256"] for s in r["code"]["sources"]}
    key = (r["kernel"], src.get(r["kernel"]), tuple(sorted((r.get("params") or {}).items())))
    code.setdefault(r["variant"], set()).add(key)
two = {v: k for v, k in code.items() if len(k) > 1}
assert not two, two
print(sorted(code))
PY
}
# open both sessions (each builds the reference and waits on its FIFO),
# then send both candidates at once
mkfifo fa fb || fail mkfifo
exec 3<>fa 4<>fb
"$EVIDENT" eval --no-progress experiments/ev.yaml < fa > a.out 2> a.err 3>&- 4>&- &
pa=$!
"$EVIDENT" eval --no-progress experiments/ev.yaml < fb > b.out 2> b.err 3>&- 4>&- &
pb=$!
for i in $(seq 600); do
	grep -q 'one answer per line' a.err 2>/dev/null && grep -q 'one answer per line' b.err 2>/dev/null && break
	sleep 0.1
done
printf '{"name": "fast", "params": {"SLEEP_US": 8000}}\n' >&3
printf '{"name": "fast", "params": {"SLEEP_US": 4000}}\n' >&4
exec 3>&- 4>&-
wait $pa # a refused candidate exits 1
wait $pb
python3 - a.out b.out <<'PY' || { cat a.out a.err b.out b.err; fail "not exactly one session took the name"; }
import json, sys
a = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
assert len(a) == 2, a
took = [x for x in a if x.get("candidate") == "fast" and x.get("outcome") == "ok"]
refused = [x for x in a if x.get("at") == "name" and "is taken in this experiment's store by other code" in x.get("error", "")]
assert len(took) == 1 and len(refused) == 1, a
PY
one_code host-redteam76-evalref > ev.names || { cat a.out b.out; fail "a name of the eval sessions stood for two codes"; }
[ -z "$(ls "$EVIDENT_STORE/pending/names")" ] || { ls -la "$EVIDENT_STORE/pending/names"; fail "a claim outlived its batch"; }
# the refused one, sent again alone, is still refused (the claim was the
# live session's; the runs hold the name now)
b=$(grep -l '"error"' a.out b.out)
if [ "$b" = a.out ]; then line='{"name": "fast", "params": {"SLEEP_US": 8000}}'; else line='{"name": "fast", "params": {"SLEEP_US": 4000}}'; fi
echo "$line" | "$EVIDENT" eval --no-progress experiments/ev.yaml > c.out 2> c.err
grep -q "is taken in this experiment's store by other code (run " c.out || { cat c.out c.err; fail "the name was not refused serially"; }

# two searches of one spec (seeds 1 and 3: other codes at g0c0 and g0c1),
# released together
sp=tests/fixtures/specs/host-redteam76-twice.yaml
for seed in 1 3; do
	sed -e "s/^  seed: 1$/  seed: $seed/" -e 's/^repeats: 4/repeats: 2/' $sp > experiments/s$seed.yaml
	grep -q "^  seed: $seed$" experiments/s$seed.yaml || fail "sed seed $seed"
done
for seed in 1 3; do
	sh -c 'while [ ! -e go ]; do sleep 0.01; done; exec "$@"' sh "$EVIDENT" run --no-progress experiments/s$seed.yaml > s$seed.out 2>&1 &
done
sleep 0.3
: > go
wait
for seed in 1 3; do grep -q "^search .*generation 0" s$seed.out || { cat s$seed.out; fail "search seed $seed did not run"; }; done
one_code host-redteam76-twice || { cat s1.out s3.out; fail "a name of the searches stood for two codes"; }
[ -z "$(ls "$EVIDENT_STORE/pending/names")" ] || { ls -la "$EVIDENT_STORE/pending/names"; fail "a search's claim outlived its batch"; }
true
