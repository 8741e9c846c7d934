# t0295 - red team 222 row 5 (tests/fixtures/adversary/host/redteam222/
# README.md): the box let EVIDENT_STORE through, so a kernel read the
# store's path, and the job hash (settings.environment_sha256 and
# box_self_sha256, both over what the box lets through) split by how the
# store was spelled: a search start that slowed with the clock, held by
# the drift rule in its own store, was promoted against when the same
# store was named through a symlink (1 of 1).  Now the box leaves
# EVIDENT_STORE out (sandbox.c env_keep's "!EVIDENT_STORE"): runs into
# one store under two spellings have one environment and one box hash.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
mkdir st
ln -s st st-link
S=tests/fixtures/specs/host-redteam222-swap.yaml
EVIDENT_STORE=$PWD/st expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 --only swap $S
EVIDENT_STORE=$PWD/st-link expect_exit 0 "$EVIDENT" run --no-progress --repeats 1 --only swap $S
python3 -S - st/runs/*.json > hashes <<'PY' || fail "reading the records: $(cat hashes)"
import json, sys
env, box = set(), set()
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    s = json.load(open(f))["settings"]
    env.add(s["environment_sha256"])
    box.add(s.get("box_self_sha256"))
print(len(env), len(box))
PY
expect_eq "$(cat hashes)" "1 1"
