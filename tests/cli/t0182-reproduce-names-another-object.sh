# t0182 - a reproduction whose rebuilt object is not the recorded one says
# so: red team 70's batch was built by a wrapper named cc first on PATH
# (`exec cc -DRT70_FAST "$@"`: other code under cc's argv and version),
# and `evident reproduce` with the plain cc rebuilt other code and
# compared its times with the recorded ones without a word.  Each row's
# rebuilt binary_sha256 is now compared with its recorded one, and a
# difference is a warning in the reproduction (printed, and recorded in
# the batch's reproduction.warnings) that names the variant and says the
# compiler executable differs.  A reproduction that rebuilds the same
# object warns nothing of the kind.
. "$REPO/tests/cli/lib.sh"
command -v cc >/dev/null || skip "no cc"
mkrepo git specs/host-redteam70-cc.yaml adversary/host/redteam70/ccfast.c # of tests/fixtures only what it reads (lib.sh mkrepo)
mkdir -p "$TEST_TMP/wrap"
printf '#!/bin/sh\nexec %s -DRT70_FAST "$@"\n' "$(command -v cc)" > "$TEST_TMP/wrap/cc"
chmod +x "$TEST_TMP/wrap/cc"
cp tests/fixtures/specs/host-redteam70-cc.yaml experiments/cc.yaml || fail "cp cc.yaml"
git add experiments/cc.yaml && git -c user.email=t@t -c user.name=t commit -qm spec || fail "commit"
PATH="$TEST_TMP/wrap:$PATH" expect_exit 0 "$EVIDENT" run --no-progress experiments/cc.yaml
wrapped=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
expect_exit 0 "$EVIDENT" run --no-progress experiments/cc.yaml
plain=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$wrapped" ] && [ -n "$plain" ] || fail "no batch ids"
"$EVIDENT" reproduce "$wrapped" > "$TEST_TMP/r1" 2>&1
expect_contains "$TEST_TMP/r1" "fast: the rebuilt object ("
expect_contains "$TEST_TMP/r1" "is not the recorded one ("
expect_contains "$TEST_TMP/r1" ", built by another compiler executable: the times compare other code"
"$EVIDENT" reproduce "$plain" > "$TEST_TMP/r2" 2>&1
grep -q "the rebuilt object" "$TEST_TMP/r2" && { cat "$TEST_TMP/r2"; fail "the plain batch's reproduction rebuilt another object"; }
python3 - artifacts/runs/*.json <<'PY' || fail "the warning is not in the reproduction's record"
import json, sys
rs = [json.load(open(p)) for p in sys.argv[1:]]
reps = [r for r in rs if r.get("kind") == "batch" and r.get("reproduction")]
assert len(reps) == 2, len(reps)
w = [x for r in reps for x in json.dumps(r["reproduction"].get("warnings", []))
     .split('", "') if "rebuilt object" in x]
assert len(w) == 1, w
PY
