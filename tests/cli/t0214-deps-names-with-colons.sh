# t0214 - a file whose name ends in a colon or holds a tab is a word of the
# compiler's dependency list like any other (red team 113, tests/fixtures/
# adversary/host/redteam113/README.md): gcc -M writes "sel.h:" unescaped
# and a tab as "\<TAB>", and build.c parse_deps took the first for a make
# target and split the second, so a header only pass 1 reads, so named,
# chose the program and was in no record's sources: at one clean commit
# the old cache entry served the old program (eval promoted a
# comment-only copy 61x).  Now the rule's one target ends the target part
# and "\<TAB>" is a tab: the header joins the sources and the entry is
# stale once it changes.  A word that names no file fails the build.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "the build and its dependency list are the subject"
D=adversary/host/redteam113
mkrepo git $D/p1_colon.c $D/p1_tab.c $D/rt113_fast.h $D/rt113_slow.h $D/rt113_p1only.h $D/rt113_sel_alt.txt \
	$D/mknames.sh
mkdir -p tests/fixtures/$D/flagdir && sh tests/fixtures/$D/mknames.sh tests/fixtures/$D
[ -e "tests/fixtures/$D/rt113_sel.h:" ] || fail "the colon file"
printf 'see t0214\n' > README.md
for v in colon tab; do
	sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam113-$v.yaml" > experiments/$v.yaml
done
rm -rf tests/fixtures/$D/flagdir
git add -A && git -c user.email=t@t -c user.name=t commit -qm names || fail "commit"
for v in colon tab; do expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/$v.yaml; done
cp tests/fixtures/$D/rt113_sel_alt.txt "tests/fixtures/$D/rt113_sel.h:" &&
	cp tests/fixtures/$D/rt113_sel_alt.txt "tests/fixtures/$D/$(printf 'rt113_t\tREADME.md')" &&
	git -c user.email=t@t -c user.name=t commit -qam fast || fail "commit the fast selections"
for v in colon tab; do
	expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/$v.yaml
	expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/$v.yaml
done
python3 - artifacts/runs/*.json <<'PY' || fail "a header named with a colon or a tab chose the program under one key, the old entry served"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 6, len(runs)
c0, t0, c1, c2, t1, t2 = runs
for first, old, fresh, name in ((c0, c1, c2, "rt113_sel.h:"), (t0, t1, t2, "rt113_t\tREADME.md")):
    for r in (first, old, fresh):
        assert r["outcome"] == "ok", (r["outcome"], r.get("reason"))
        assert any(s["path"].endswith("/" + name) for s in r["code"]["sources"]), "%r is in no record's sources" % name
    assert old["code"]["binary_sha256"] == fresh["code"]["binary_sha256"], "the old entry served"
    assert old["code"]["binary_sha256"] != first["code"]["binary_sha256"], "the selection chose nothing"
    assert not old["build"]["cached"], "the stale entry was a hit"
PY
true
