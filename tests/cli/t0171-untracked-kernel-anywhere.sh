# t0171 - a kernel git does not track is provenance wherever it lies: a
# spec and its kernel in a directory of their own (not kernels/, problems/
# or experiments/), neither committed, make a dirty record that lists both
# as untracked, and the recorded patch holds their bytes (red team 49: a
# kernel under tests/fixtures/ was recorded dirty: false, untracked: [])
. "$REPO/tests/cli/lib.sh"
mkrepo git
mkdir -p mine
cp kernels/host/attn_naive.c mine/naive_copy.c
echo "/* a line that is in no commit */" >> mine/naive_copy.c
sed 's|kernels/host/attn_naive.c|mine/naive_copy.c|' tests/fixtures/specs/tiny.yaml > mine/tiny.yaml
expect_exit 0 "$EVIDENT" run --no-progress mine/tiny.yaml
f=$(grep -l '"variant": "naive"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$f" ] || fail "no record of naive"
expect_eq "$(jget "$f" "d['code']['git']['dirty']")" True
expect_eq "$(jget "$f" "sorted(d['code']['git']['untracked'])")" "['mine/naive_copy.c', 'mine/tiny.yaml']"
# the patch (a store object) adds both files, the kernel's new line included
obj=$(jget "$f" "d['code']['git']['diff_object']")
p=$TEST_TMP/patch
"$EVIDENT" show --object "$obj" > "$p" || fail "the patch object $obj is not in the store"
expect_contains "$p" "+++ b/mine/naive_copy.c"
expect_contains "$p" "+/* a line that is in no commit */"
expect_contains "$p" "+++ b/mine/tiny.yaml"
# a committed tree with only tracked, unchanged files stays clean
git -c user.email=t@t -c user.name=t add mine && git -c user.email=t@t -c user.name=t commit -qm mine || fail "commit"
expect_exit 0 "$EVIDENT" run --no-progress mine/tiny.yaml
f2=$(ls -t artifacts/runs/*.json | grep -v batch | head -1)
expect_eq "$(jget "$f2" "d['code']['git']['dirty'], d['code']['git']['untracked']")" "(False, [])"
exit 0
