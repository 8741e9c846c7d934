# t0211 - a boxed build's first pass (-M) reads no byte in place that a
# hash does not cover, a file of one name included.  Red team 111's mm
# (tests/fixtures/adversary/host/redteam111/README.md, mmswap.c): a
# header of one name stored over through a MAP_SHARED mapping whose page
# was dirtied before the build began moves no change time, so the rule
# "a file of one name whose change time is after the build began fails
# the build" never saw red team 107's race done so: the fast selection
# stored once the build key had hashed the header, the committed bytes
# stored back once the next read had closed, before the compile's copy:
# one key, the 1-pass program for the 64-pass one, 3 of 3.  Now pass 1 is
# shown every key source as a copy hashed as it is made, and a copy that
# is not the bytes the key hashed, or not the compile's, fails the build
# ("changed while the build read it"): the honest program or
# build_failed, never the other program.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "the build and its first pass are the subject"
D=adversary/host/redteam111
mkrepo git $D/p1_mm.c $D/rt111_fast.h $D/rt111_slow.h $D/rt111_p1only.h $D/rt111_sel.h $D/rt111_sel_alt.txt
sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam111-mm.yaml" > experiments/mm.yaml
H=tests/fixtures/$D/rt111_sel.h
# the header an hour old, so that git's index holds it clean by its stat
# alone (a change after the commit, or in the index's second, has git
# status read it again: the writer would count git's reads)
touch -d '1 hour ago' "$H" && git add -A && git -c user.email=t@t -c user.name=t commit -qm spec ||
	fail "commit the spec"
[ "$(stat -c %h "$H")" = 1 ] || fail "the header has not one name"
cp "$H" "$TEST_TMP/sel-committed"
gcc -O2 -o "$TEST_TMP/mmswap" "$REPO/tests/fixtures/$D/mmswap.c" || fail "cannot build mmswap.c"
# the honest program (the writer logging only: its dirty mapping and all)
"$TEST_TMP/mmswap" "$H" tests/fixtures/$D/rt111_sel_alt.txt mmap 0 60 2> "$TEST_TMP/mm0.log" &
W=$!
sleep 0.3
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/mm.yaml
kill $W; wait $W 2>/dev/null
# the writer: its page dirtied before the build began; on the 3rd read's
# close (the build key's hashes done) the fast selection stored through
# the mapping, on the next read's close the committed bytes stored back
"$TEST_TMP/mmswap" "$H" tests/fixtures/$D/rt111_sel_alt.txt mmap 3 60 2> "$TEST_TMP/mm.log" &
W=$!
sleep 0.3
"$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/mm.yaml > "$TEST_TMP/out2" 2>&1
kill $W; wait $W 2>/dev/null
cat "$TEST_TMP/mm.log"
grep -q "alt written" "$TEST_TMP/mm.log" || fail "the writer never stored the fast selection"
grep -q "restored" "$TEST_TMP/mm.log" || fail "the writer never stored the committed bytes back"
cmp -s "$H" "$TEST_TMP/sel-committed" && [ "$(stat -c %h "$H")" = 1 ] || fail "the header is not what it was"
[ -z "$(git status --porcelain -- tests kernels problems experiments)" ] || fail "the tree is not clean"
python3 - artifacts/runs/*.json <<'PY' || fail "bytes pass 1 read through a dirty mapping chose the program under one key"
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
