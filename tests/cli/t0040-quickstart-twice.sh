# README's Quick start, word for word and in its order, twice, on a fresh
# clone: `make exp/cpu-demo` then `make test`, then both again.  Every step
# succeeds and the clone is left clean (`git status` prints nothing): the
# demo's runs go to the user's store (store/, git-ignored), never into the
# study's committed store artifacts/ that `make test` checks.  Inside the
# clone, `make test` leaves its ASan+UBSan pass, check-kernels, the Slurm
# clusters and the tests that race the clock or each other (lib.sh's
# outer_only) to this (outer) make test: same code, same tree, a quarter of
# the time, and a rare flake shows up out here, under its own name.
. "$REPO/tests/cli/lib.sh"
[ -z "${EVIDENT_QUICKSTART_INNER:-}" ] || skip "inside the quick-start test's own 'make test'"
case "$EVIDENT" in *build-san*) skip "runs once, in the plain (not sanitized) pass";; esac
git -C "$REPO" rev-parse -q --verify HEAD >/dev/null || skip "REPO is not a git checkout"
# the commands README's Quick start shows, in its order
steps=$(sed -n '/^## Quick start/,/^## /p' "$REPO/README.md" | sed -n '/^```/,/^```/p' | grep '^make ' | sed 's/ *#.*//')
expect_eq "$(echo $steps)" "make exp/cpu-demo make test" "README's Quick start"
# The runner shows a failing test's last 25 lines: of an inner make test's
# log, the ok and skip lines would fill them, so what failed is shown alone.
inner_failure() {
	if grep -q '^FAIL ' "$1"; then
		grep -v -e '^ok ' -e '^skip ' "$1" | grep -A17 -m1 '^FAIL ' | grep -e '^FAIL ' -e '^     |'
		grep -e '^failed:' -e '^cli:' "$1" | tail -2
	else
		tail -22 "$1"
	fi
}
git clone -q "$REPO" clone || fail "git clone"
cd clone || fail "cd clone"
for round in 1 2; do
	while read -r cmd; do
		echo "== round $round: $cmd"
		env -u EVIDENT -u EVIDENT_STORE -u TEST_TMP EVIDENT_QUICKSTART_INNER=1 $cmd > "$TEST_TMP/log" 2>&1 ||
			{ inner_failure "$TEST_TMP/log"; fail "round $round: '$cmd' failed"; }
	done <<< "$steps"
	st=$(git status --porcelain --ignored=no)
	[ -z "$st" ] || fail "round $round left the clone dirty: $st"
done
[ -d store/runs ] || fail "the demo recorded nothing in store/"
[ "$(ls store/runs | grep -c batch)" = 2 ] || fail "expected two demo batches in store/"
