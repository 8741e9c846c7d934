# t0208 - a boxed build's first pass (-M, the preprocessor's rule) is
# shown of the repository only what a record can name: the files git's
# index holds and the untracked files the patch covers (kernels/,
# problems/, experiments/, not ignored), with the sources the build key
# read; and of a flag directory only the files the compile may be shown.
# Red team 103 (tests/fixtures/adversary/host/redteam103/README.md): ign
# had a git-ignored marker (rt103_mode.d, ignored by "*.d"), only looked
# for with __has_include and so in no dependency list, the build key, the
# commit or the patch, choose between a 1-pass and a 64-pass program under
# one build key on a clean tree (eval promoted a comment-only copy 60x);
# quote had pass 1, shown the flag directory whole, quote a hard-linked
# file's "#" line into the stored build log.  Now the marker is not there
# for either pass (one program), and the hard link is not shown (the
# build fails saying why, and nothing of the file is stored).
. "$REPO/tests/cli/lib.sh"
D=adversary/host/redteam103
mkrepo git $D/p1_ign.c $D/rt103_fast.h $D/rt103_slow.h $D/rt103_p1only.h $D/p1_quote.c
printf '*.d\n' > .gitignore
git add .gitignore && git -c user.email=t@t -c user.name=t commit -qm ignore || fail "commit .gitignore"
sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam103-ign.yaml" > experiments/ign.yaml
git add experiments/ign.yaml && git -c user.email=t@t -c user.name=t commit -qm spec || fail "commit the spec"
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/ign.yaml
: > tests/fixtures/$D/rt103_mode.d
git check-ignore -q tests/fixtures/$D/rt103_mode.d || fail "the marker is not ignored"
[ -z "$(git status --porcelain -- tests kernels problems experiments)" ] || fail "the tree is not clean"
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/ign.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "an ignored name only pass 1 looked for chose the program under one key"
import json, sys
runs = sorted((json.load(open(p)) for p in sys.argv[1:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 2, len(runs)
k = [r["code"]["build_key"] for r in runs]
b = [r["code"]["binary_sha256"] for r in runs]
print("keys", k, "binaries", b, "cached", [r["build"]["cached"] for r in runs])
assert all(r["build"]["status"] == "ok" for r in runs)
assert not runs[1]["build"]["cached"], "the second build was a cache hit"
assert k[0] != k[1] or b[0] == b[1], "one build key, two programs"
PY
# the default cache and the store inside the repository (their mount
# points made in pass 1's copy of the repository's root): the build is ok
expect_exit 0 "$EVIDENT" run --no-progress experiments/ign.yaml
expect_not_contains "$TEST_TMP/out" "build_failed"
# an ignored header reached only through a macro (so in no text the key
# reads) is not shown either, and the build says why
{ printf '#define H "hid.d"\n#include H\n'; sed 1,8d tests/fixtures/$D/p1_quote.c; } > tests/fixtures/$D/p1_hid.c
printf '/* hidden */\n' > tests/fixtures/$D/hid.d
git add tests/fixtures/$D/p1_hid.c && git -c user.email=t@t -c user.name=t commit -qm hid || fail "commit p1_hid.c"
sed -e 's/p1_ign.c/p1_hid.c/' -e 's/expect: ok/expect: build_failed/' experiments/ign.yaml > experiments/hid.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/hid.yaml
expect_contains "$TEST_TMP/out" "hid.d' is a file git neither tracks nor would put in the record's patch"
# a flag directory's hard link (to a 0600 file) is not shown to pass 1
# either: its "#" line is quoted nowhere in the store
mkdir -p "$TEST_TMP/q" "$TEST_TMP/qsrc"
chmod 755 "$TEST_TMP" "$TEST_TMP/q"
printf '#T0208-SECRET-hardlink\n' > "$TEST_TMP/qsrc/secret"
chmod 600 "$TEST_TMP/qsrc/secret"
ln "$TEST_TMP/qsrc/secret" "$TEST_TMP/q/q.h"
sed -e "s|-I/tmp/rt103q|-I$TEST_TMP/q|" -e 's/samples: 5/samples: 3/' \
	"$REPO/tests/fixtures/specs/host-redteam103-quote.yaml" > experiments/quote.yaml
grep -q -- "-I$TEST_TMP/q" experiments/quote.yaml || fail "the spec did not take the directory"
expect_exit 0 "$EVIDENT" run --no-progress experiments/quote.yaml
expect_contains "$TEST_TMP/out" "'$TEST_TMP/q/q.h' is a file with 2 names (a hard link)"
# the same directory with an honest q.h beside the hard link (now under
# another name): the directory is shown in part, and the build is ok
rm "$TEST_TMP/q/q.h"
ln "$TEST_TMP/qsrc/secret" "$TEST_TMP/q/other.h"
printf '/* honest */\n' > "$TEST_TMP/q/q.h"
chmod 644 "$TEST_TMP/q/q.h"
sed -i 's/expect: build_failed/expect: ok/' experiments/quote.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/quote.yaml
expect_not_contains "$TEST_TMP/out" "build_failed"
if grep -rq "T0208-SECRET" artifacts build/cache 2>/dev/null; then
	fail "the hard-linked file's line is in the store or the cache"
fi
exit 0
