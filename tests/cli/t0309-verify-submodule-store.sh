# t0309 - verify anchors a store kept in a git submodule to the project's
# gitlink of it (red team 253 row 2, redteam253/submod.sh): the project
# tracks the submodule as one commit id, so the anchor was the
# submodule's own history alone, and a batch cut out and committed as the
# submodule's new root (git checkout --orphan), the gitlink moved by an
# ordinary commit of the project, read intact under --history (3 of 3, a
# fresh recursive clone too).  Now the submodule's HEAD must be the
# project's gitlink or descend from it, and each move of the gitlink in
# the project's history must go to a descendant of where it was
# (store_anchor.c anchor_gitlinks).  About 5 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo git specs/tiny.yaml
P=$PWD
g() { git -c user.email=t@t -c user.name=t -c protocol.file.allow=always "$@" >/dev/null 2>&1 || fail "git $*"; }
mkdir -p "$TEST_TMP/results" && (cd "$TEST_TMP/results" && git init -q .) || fail "git init"
for i in 1 2; do
	EVIDENT_STORE=$TEST_TMP/results/store "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >run.out 2>&1 ||
		{ cat run.out; fail "batch $i did not run"; }
done
cd "$TEST_TMP/results" && g add -A && g commit -qm "two batches"
cd "$P" && g submodule add "file://$TEST_TMP/results" results && g commit -qm "results as a submodule"
expect_exit 0 "$EVIDENT" verify --history --store results/store
expect_match "$TEST_TMP/out" "^anchored: the submodule .*/results to the project's gitlink at results; the project's history: [0-9]+ commits read, 0 moves of it compared$"
# an honest move: a third batch committed on the submodule's history, the
# gitlink moved to it
EVIDENT_STORE=$PWD/results/store "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >run.out 2>&1 ||
	{ cat run.out; fail "batch 3 did not run"; }
cd results && g add -A && g commit -qm "a third batch" && cd "$P" && g add results && g commit -qm "results: a third batch"
expect_exit 0 "$EVIDENT" verify --history --store results/store
expect_match "$TEST_TMP/out" "^anchored: the submodule .*/results to the project's gitlink at results; the project's history: [0-9]+ commits read, 1 moves of it compared$"
# the submodule's history replaced by a cut, as a new root; the project
# not told yet: its HEAD's gitlink is not in the submodule's history
first=$(ls results/store/runs | grep -- -batch.json | head -1 | cut -c1-20)
cd results && python3 -S "$REPO/tests/fixtures/adversary/host/redteam249/rechain.py" store drop "$first" >/dev/null ||
	fail "the cut"
g checkout -q --orphan clean && g add -A store && g commit -qm "results"
cd "$P"
expect_exit 1 "$EVIDENT" verify --store results/store
expect_match "$TEST_TMP/out" "^rewritten: the store lies in the submodule .*/results, whose HEAD \([0-9a-f]{12}\) does not descend from the commit the project's HEAD records for it \([0-9a-f]{12}\)$"
# the gitlink moved by an ordinary commit of the project: HEAD agrees,
# the project's history does not
g add results && g commit -qm "update results"
expect_exit 1 "$EVIDENT" verify --history --store results/store
expect_match "$TEST_TMP/out" "^rewritten: the project's commit [0-9a-f]{12} moved the store's submodule results from [0-9a-f]{12} to [0-9a-f]{12}, which does not descend from it \(the store's history replaced\)$"
exit 0
