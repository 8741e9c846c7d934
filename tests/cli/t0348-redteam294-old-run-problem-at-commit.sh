# t0348 - red team 294 row 2 (host/redteam294/README.md): a run that
# recorded no problem code (an evident build before problem provenance,
# 74c9de22e) was judged by its kernel alone unless a newer run of its
# experiment showed the problem changed; evident of 74c9de22e^ recorded a
# gemm off by 2.4e-4 ok under that commit's fp32 rule (3.2e-4 at K
# 262144, twice today's) and `validated` read supported, 5 of 5 stores.
# Now such a run that names its commit is judged by the problem's code at
# that commit (problems/NAME.c and the headers it includes, against the
# work tree's: store/problem_code.c), and a commit the repository lacks
# leaves that code unknown: stale either way.  The committed study store
# holds such runs: gemm-cuda's and softmax-cuda's of 2026-11-23, at
# d26afa099b98, whose problems/gemm.c and problems/softmax.c changed since
# (the fp32 rule capped, softmax's large elements hidden): from the
# repository, "changed since commit d26afa099b98"; from a fresh
# repository with today's kernels and problems but none of that history,
# "not in the repository".  Before: both supported, in both.  Control:
# iter3's runs of 2026-11-28 recorded their problem code (attention_fwd),
# which is the work tree's: supported.  (layernorm-cuda's runs of
# 2026-12-01 were the control until red team 296 row 1 changed
# problems/layernorm.c: they are stale now, as they should be.)  The
# softmax claim is pinned to the batch of 2026-11-23: softmax-cuda ran
# again on the H100 on 2026-12-07 with its problem code recorded, and its
# latest batch is current; so is gemm's claim, since gemm-cuda ran again
# on 2026-12-07 (23:43).  About 3 s.
. "$REPO/tests/cli/lib.sh"
cat >"$TEST_TMP/c.md" <<'M'
gemm tile16 is validated. <!-- claim: validated experiment=gemm-cuda variant=tile16 run=20261123T205902.895Z-gemm-cuda-2958e69c-batch -->

softmax bt256 is slower. <!-- claim: slower experiment=softmax-cuda a=bt256 b=bt128 run=20261123T210224.753Z-softmax-cuda-1bc1987c-batch -->

wg4 is slower. <!-- claim: slower experiment=iter3 a=wg4 b=wg3 -->
M
f="$TEST_TMP/c.md" o="$TEST_TMP/out"
# 1. from the evident repository: the commit is there, its problem code is not today's
# (a shallow clone without d26afa099b98 reads "not in the repository", as in 2)
if git -C "$REPO" cat-file -e 'd26afa099b98^{commit}' 2>/dev/null; then
	(cd "$REPO" && expect_exit 1 "$EVIDENT" audit --store "$REPO/artifacts" "$f") || exit 1
	expect_match $o "$f:1: stale: validated gemm-cuda/tile16: run '[^']*' recorded no problem code, and the problem 'gemm' of its commit is not the working tree's: 'problems/gemm.c' changed since commit d26afa099b98; rerun the experiment"
	expect_match $o "$f:3: stale: slower bt256 vs bt128: run '[^']*' recorded no problem code, and the problem 'softmax' of its commit is not the working tree's: 'problems/softmax.c' changed since commit d26afa099b98; rerun the experiment"
	expect_match $o "$f:5: supported: slower wg4 vs wg3: "
	expect_contains $o 'audit: 3 claims: 1 supported, 0 contradicted, 2 stale, 0 unsupported'
fi
# 2. from a repository that lacks the commit (today's kernels and problems,
# one commit of its own, and the three specs): the problem code those
# runs ran is unknown
mkrepo git none
cp "$REPO"/experiments/gemm-cuda.yaml "$REPO"/experiments/softmax-cuda.yaml "$REPO"/experiments/iter3.yaml \
	experiments/ || fail "the specs"
expect_exit 1 "$EVIDENT" audit --store "$REPO/artifacts" "$f"
expect_match $o "$f:1: stale: validated gemm-cuda/tile16: run '[^']*' recorded no problem code, and the problem 'gemm' of its commit is not the working tree's: commit d26afa099b98 is not in the repository \\(.*\\), so the problem code it ran is unknown"
expect_match $o "$f:3: stale: slower bt256 vs bt128: run '[^']*' recorded no problem code, and the problem 'softmax' of its commit is not the working tree's: commit d26afa099b98 is not in the repository"
expect_match $o "$f:5: supported: slower wg4 vs wg3: "
expect_contains $o 'audit: 3 claims: 1 supported, 0 contradicted, 2 stale, 0 unsupported'
