# t0212 - every file a boxed build's first pass (-M) read joins the
# record's sources with the hash of the copy it was shown, so a cache hit
# re-hashes it.  Red team 111 (tests/fixtures/adversary/host/redteam111/
# README.md, mmflag perm and macro): a header only pass 1 reads chose the
# program and was in neither the build key (a flag directory's names are
# in it, not its bytes; the key's text scan does not follow a
# macro-named include) nor the record's sources (pass 2's dependency
# list): a plain cp over a header of a spec's -I directory, or a commit
# of a macro-named repository header, left one key with two programs,
# the old cache entry serving the old one (eval promoted a comment-only
# copy 115x).  Now the entry is stale once the file changes: rebuilt,
# the program a fresh cache builds.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "the build and its first pass are the subject"
D=adversary/host/redteam111
mkrepo git $D/p1_mmf.c $D/p1_macro.c $D/rt111_fast.h $D/rt111_slow.h $D/rt111_p1only.h $D/rt111_msel.h \
	$D/rt111_msel_alt.txt
F=$TEST_TMP/fd
mkdir -p "$F" && cp "$REPO/tests/fixtures/$D/flagdir/"*.h "$F/" && chmod 755 "$TEST_TMP" "$F" && chmod 644 "$F"/*.h ||
	fail "the flag directory"
sed -e 's/samples: 5/samples: 3/' -e "s|-I/tmp/rt111FD|-I$F|" "$REPO/tests/fixtures/specs/host-redteam111-mmflag.yaml" \
	> experiments/flag.yaml
grep -q -- "-I$F" experiments/flag.yaml || fail "the spec did not take the directory"
sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam111-macro.yaml" > experiments/macro.yaml
git add -A && git -c user.email=t@t -c user.name=t commit -qm specs || fail "commit the specs"
# each spec: built with cache c1 (the 64-pass selection), the selection
# changed (the flag directory's header copied over; the macro-named
# header committed), then c1 again and a fresh c2
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/flag.yaml
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/macro.yaml
cp "$REPO/tests/fixtures/$D/flagdir/rt111f_sel_alt.txt" "$F/rt111f_sel.h" || fail "cp"
cp tests/fixtures/$D/rt111_msel_alt.txt tests/fixtures/$D/rt111_msel.h &&
	git -c user.email=t@t -c user.name=t commit -qam fast || fail "commit the fast selection"
for s in flag macro; do
	expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/$s.yaml
	expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/$s.yaml
done
[ -z "$(git status --porcelain -- tests kernels problems experiments)" ] || fail "the tree is not clean"
python3 - artifacts/runs/*.json <<'PY' || fail "a header pass 1 alone read chose the program under one key, the old entry served"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 6, len(runs)
for r in runs:
    print(r["outcome"], r["build"]["status"], r["build"].get("cached"), r["code"]["build_key"][:12],
          (r["code"].get("binary_sha256") or "")[:12], [s["path"].split("/")[-1] for s in r["code"]["sources"]])
flag0, macro0, flag1, flag2, macro1, macro2 = runs
for first, old, fresh, name in ((flag0, flag1, flag2, "rt111f_sel.h"), (macro0, macro1, macro2, "rt111_msel.h")):
    for r in (first, old, fresh):
        assert r["outcome"] == "ok", r["outcome"]
        sel = [s for s in r["code"]["sources"] if s["path"].endswith("/" + name)]
        assert sel, "%s is in no record's sources" % name
    assert old["code"]["build_key"] == fresh["code"]["build_key"] == first["code"]["build_key"]
    assert old["code"]["binary_sha256"] == fresh["code"]["binary_sha256"], "one key, two programs: the old entry served"
    assert old["code"]["binary_sha256"] != first["code"]["binary_sha256"], "the selection chose nothing"
    assert not old["build"]["cached"], "the stale entry was a hit"
PY
