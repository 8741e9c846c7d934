# t0210 - a boxed build's first pass (-M) reads no byte a hash does not
# cover, a file of several names (a hard link) included.  Red team 107's
# race (tests/fixtures/adversary/host/redteam107/README.md, inplace.c): a
# header written in place (same inode: no directory's ctime moves) once
# the build key had hashed it, and put back once pass 1 had read it,
# before the compile's copy hashed it again, chose a 1-pass program under
# the 64-pass program's key, 3 of 3.  Closed for files of one name by
# their change time; a hard-linked header's change time moves with every
# name made or removed anywhere (make test's repositories are hard-linked
# fixture copies), so it passed.  Now pass 1 is shown such a file as a
# copy hashed as it is made, and a copy whose bytes are not the
# compile's fails the build ("changed while the build read it"): either
# the honest program or build_failed, never the other program.  A
# hard-linked header reached through a macro (not among the key's
# sources) has pass 1 run again shown it as a copy: the honest build is ok.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "the build and its first pass are the subject"
D=adversary/host/redteam107
mkrepo git $D/p1_race.c $D/rt107_fast.h $D/rt107_slow.h $D/rt107_p1only.h $D/rt107_sel.h
sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam107-race.yaml" > experiments/race.yaml
H=tests/fixtures/$D/rt107_sel.h
# a second name, outside the repository: the header's nlink is 2.  Made
# before the commit, and the header an hour old, so that git's index holds
# it clean by its stat alone (a change after the commit, or in the index's
# second, has git status read it again: the writer would count git's reads)
ln "$H" "$TEST_TMP/sel-second-name" || fail "ln"
touch -d '1 hour ago' "$H" && git add -A && git -c user.email=t@t -c user.name=t commit -qm spec ||
	fail "commit the spec"
[ "$(stat -c %h "$H")" = 2 ] || fail "the header has not two names"
gcc -O2 -o "$TEST_TMP/inplace" "$REPO/tests/fixtures/$D/inplace.c" || fail "cannot build inplace.c"
# the honest program (no writer)
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/race.yaml
# the writer: on the 2nd read's close (the key's hash) the fast header's
# include in place, on the next read's close the committed bytes back
"$TEST_TMP/inplace" "$H" "$REPO/tests/fixtures/$D/rt107_sel_alt.txt" 2 60 2> "$TEST_TMP/inplace.log" &
W=$!
sleep 0.3
"$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/race.yaml > "$TEST_TMP/out2" 2>&1
kill $W; wait $W 2>/dev/null
cat "$TEST_TMP/inplace.log"
grep -q "alt written" "$TEST_TMP/inplace.log" || fail "the writer never wrote the header in place"
cmp -s "$H" "$TEST_TMP/sel-second-name" && [ "$(stat -c %h "$H")" = 2 ] || fail "the header is not what it was"
[ -z "$(git status --porcelain -- tests kernels problems experiments)" ] || fail "the tree is not clean"
python3 - artifacts/runs/*.json <<'PY' || fail "bytes pass 1 read and no hash covers chose the program under one key"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 2, len(runs)
for r in runs:
    print(r["outcome"], r["build"]["status"], r["build"].get("cached"), r["code"]["build_key"][:12],
          (r["code"].get("binary_sha256") or "")[:12], (r.get("reason") or "")[:300])
honest, raced = runs
assert honest["build"]["status"] == "ok"
assert not raced["build"]["cached"], "the raced build was a cache hit"
if raced["build"]["status"] == "ok":
    assert raced["code"]["build_key"] == honest["code"]["build_key"]
    assert raced["code"]["binary_sha256"] == honest["code"]["binary_sha256"], "one build key, two programs"
else:
    assert raced["outcome"] == "build_failed", raced["outcome"]
    assert "changed while the build read it" in (raced.get("reason") or ""), raced.get("reason")
PY
# the hard-linked header reached through a macro (in no text the key
# reads, so pass 1 is first shown it in place): pass 1 runs again shown it
# as a copy, and the honest build is ok with the same program
M=tests/fixtures/$D/p1_macro.c
sed -e 's|^#include "rt107_sel.h"|#define RT107_SEL "rt107_sel.h"\n#include RT107_SEL|' tests/fixtures/$D/p1_race.c > $M
grep -q '^#include RT107_SEL' $M || fail "no macro include in $M"
sed -e 's|p1_race.c|p1_macro.c|' experiments/race.yaml > experiments/macro.yaml
git add -A && git -c user.email=t@t -c user.name=t commit -qm macro || fail "commit the macro kernel"
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c3" experiments/macro.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "a hard-linked header reached through a macro"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 3, len(runs)
honest, m = runs[0], runs[2]
print(m["outcome"], m["build"]["status"], (m["code"].get("binary_sha256") or "")[:12], (m.get("reason") or "")[:300])
assert m["build"]["status"] == "ok"
assert not m["build"]["cached"]
print([(s["path"].split("/")[-1], s["sha256"][:12]) for s in m["code"]["sources"]])
PY
