# dirty tree: the record has the commit, dirty: true, and a patch that git apply accepts on that commit, reproducing the kernel sources byte for byte
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject is provenance: the patch restores what the run built from"
mkrepo git none # of tests/fixtures only what it reads (lib.sh mkrepo)
printf '\n/* a local edit */\n' >> kernels/host/attn_blocked.c
cp kernels/host/attn_naive.c kernels/host/attn_new.c   # untracked kernel
cat > experiments/d.yaml <<'Y'
name: d
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
baseline: a
variants:
  a: {kernel: kernels/host/attn_blocked.c, BLOCK_M: 4, BLOCK_N: 8}
  b: {kernel: kernels/host/attn_new.c}
timing: {samples: 3, warmup_ms: 1}
repeats: 1
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/d.yaml
"$EVIDENT" ls --json >"$TEST_TMP/ls.json" || fail "evident ls --json"
# the run of variant a (attn_blocked.c); run ids do not sort by variant
run=$(python3 -c "import json,sys; print([r['run_id'] for r in json.load(open(sys.argv[1])) if r['variant'] == 'a'][0])" "$TEST_TMP/ls.json") ||
	fail "no run of variant a in evident ls"
m=artifacts/runs/$run.json
expect_eq "$(jget $m "d['code']['git']['dirty']")" True
commit=$(jget $m "d['code']['git']['commit']")
expect_eq "$commit" "$(git rev-parse HEAD)"
"$EVIDENT" show --diff "$run" > "$TEST_TMP/patch" || fail "show --diff"
git worktree add -q "$TEST_TMP/clean" "$commit" 2>/dev/null || git clone -q . "$TEST_TMP/clean"
(cd "$TEST_TMP/clean" && git checkout -q "$commit" && git apply "$TEST_TMP/patch") || fail "git apply refused the recorded patch"
for f in kernels/host/attn_blocked.c kernels/host/attn_new.c experiments/d.yaml; do
	cmp "$f" "$TEST_TMP/clean/$f" || fail "$f differs after applying the patch"
done
# and the recorded source hash matches the file
expect_eq "$(jget $m "d['code']['sources'][0]['sha256']")" "$(sha256sum kernels/host/attn_blocked.c | cut -c1-64)"
