# t0185 - a search's candidate names are its own (red team 76).  One spec
# searched twice in one store (seed 1, then 3) made two g0c1 of other
# code, and the first search's best, g0c1, read `validated` contradicted
# by the second's wrong kernel ("8 of 40 failed").  Now a name the store
# holds for other code is suffixed (g0c1-2), the first best's claim stays
# supported, and eval refuses a gNcK name (squat: an eval candidate took
# g0c0 before the search made its own).
. "$REPO/tests/cli/lib.sh"
mkrepo
sp=tests/fixtures/specs/host-redteam76-twice.yaml
for seed in 1 3; do
	sed -e "s/^  seed: 1$/  seed: $seed/" -e 's/^repeats: 4/repeats: 2/' $sp > experiments/s$seed.yaml
	grep -q "^  seed: $seed$" experiments/s$seed.yaml || fail "sed seed $seed"
	"$EVIDENT" run --no-progress experiments/s$seed.yaml > s$seed.out 2>&1 || { cat s$seed.out; fail "search seed $seed exited $?"; }
done
python3 - artifacts/runs/*.json <<'PY' || fail "a name stood for two codes"
import json, sys
code = {}
for p in sys.argv[1:]:
    r = json.load(open(p))
    if r.get("kind") in ("batch", "search") or r.get("experiment") != "host-redteam76-twice" or "variant" not in r:
        continue
    src = {s["path"]: s["sha256"] for s in r["code"]["sources"]}
    key = (r["kernel"], src.get(r["kernel"]), tuple(sorted((r.get("params") or {}).items())))
    code.setdefault(r["variant"], set()).add(key)
two = {v: k for v, k in code.items() if len(k) > 1}
assert not two, two
print(sorted(code))
PY
# eval may not take a search's name
printf '{"name": "g0c0", "kernel": "tests/fixtures/host/sleepy.c", "params": {"SLEEP_US": 8000}}\n' > in.jsonl
"$EVIDENT" eval --reference base --repeats 1 --no-progress experiments/s1.yaml < in.jsonl > ans 2> err
grep -q '"at":"name"' ans && grep -q "has the form of a search's candidate names" ans || { cat ans err; fail "eval took a search's name"; }
