# t0209 - a gitlink (a submodule's commit in git's index) is walked by the
# build's first pass with the submodule's own index, its tracked files
# alone, and a gitlink whose directory is no repository of its own shows
# nothing.  Red team 107 (tests/fixtures/adversary/host/redteam107/
# README.md): a gitlink was shown to pass 1 whole, so a marker in it that
# no record names (an ignored or untracked file of a submodule, or any
# file under a gitlink index entry over a plain directory, `git status`
# empty), only looked for with __has_include, chose a 1-pass or a 64-pass
# program under one build key, every record clean; eval promoted a
# comment-only copy 62x.  Now the marker is not there for pass 1: one
# program.
. "$REPO/tests/cli/lib.sh"
D=adversary/host/redteam107
mkrepo git $D/p1_sub.c $D/rt107_fast.h $D/rt107_slow.h $D/rt107_p1only.h
G="git -c user.email=t@t -c user.name=t"
sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam107-sub.yaml" > experiments/sub.yaml
S=tests/fixtures/$D/rt107sub
mkdir -p $S && printf '/* keep.h */\n' > $S/keep.h
$G add -A && $G commit -qm spec || fail "commit"
# the plain directory under a gitlink entry (no second repository)
git rm -rq --cached $S && git update-index --add --cacheinfo 160000,"$(git rev-parse HEAD)",$S &&
	$G commit -qm gitlink || fail "the gitlink entry"
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c1" experiments/sub.yaml
: > $S/mode.d
[ -z "$(git status --porcelain -- tests kernels problems experiments)" ] || fail "the tree is not clean"
expect_exit 0 "$EVIDENT" run --no-progress --cache "$TEST_TMP/c2" experiments/sub.yaml
python3 - artifacts/runs/*.json <<'PY' || fail "a name under a gitlink, only pass 1 looked for, chose the program under one key"
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
