# errata-lib.sh - the errata tests' setup (t0334, t0337, t0338; source it
# after lib.sh): a store of the runner under test's own runs, and commits
# made by plumbing on the runner's own commit (its repository's objects as
# an alternate), no build: the runner under test's records are the runs
# an erratum covers or not.  Named as paper-lib.sh and slurm-lib.sh are:
# tests/cli/run.sh runs only tNNNN-*.sh.
#
#   errata_setup TAG          a scratch repository (lib.sh's mkrepo) with
#                             specs/tiny.yaml, RC the runner's commit (the
#                             test skips where evident names none or the
#                             repository lacks it), S a store with one run
#                             of tiny by this evident, and claim.md
#                             ("validated tiny/naive"); TAG names what the
#                             helpers write
#   commit_with BASE PATH FILE   a commit on BASE whose PATH holds FILE's
#                             bytes (no ref moved, no work tree touched);
#                             its id on stdout
#   fix_of BASE               a commit on BASE that adds code the build
#                             compiles (src/base/TAG_fix.c: src/*/*.c, red
#                             team 285 row 4b): an erratum's fix
#   audit_with NAME DEFECT FIX   claim.md audited with the erratum "DEFECT
#                             FIX" (output in NAME.out, exit status in
#                             NAME.rc, both echoed)
#   short ID                  the first 8 hex digits of a commit id

errata_setup() {
	ERRATA_TAG=$1
	mkrepo git specs/tiny.yaml
	"$EVIDENT" --version > version.out 2>&1 || fail "evident --version"
	RC=$(sed -n 's/^evident [^ ]* (commit \([0-9a-f]\{40\}\)[,)].*/\1/p' version.out)
	grep -q '(commit unknown' version.out && skip "this evident was built without git: its records name no runner commit"
	[ -n "$RC" ] || fail "evident --version names no build commit: $(cat version.out)"
	git -C "$REPO" cat-file -e "$RC^{commit}" 2>/dev/null || skip "the runner's commit $RC is not in $REPO"
	local objs
	objs=$(cd "$REPO" && cd "$(git rev-parse --git-common-dir)/objects" && pwd) || fail "the evident repository's objects"
	echo "$objs" >> .git/objects/info/alternates
	S="$TEST_TMP/s"
	expect_exit 0 "$EVIDENT" run --no-progress --store "$S" tests/fixtures/specs/tiny.yaml
	printf 'int %s_fix = 1;\n' "$ERRATA_TAG" > fix.c
	cat > claim.md <<'EOF2'
naive passes every check. <!-- claim: validated experiment=tiny variant=naive -->
EOF2
}

commit_with() {
	local blob tree
	blob=$(git hash-object -w "$3") || fail "hash-object $3"
	tree=$(GIT_INDEX_FILE="$TEST_TMP/idx" sh -c 'git read-tree "$1" && git update-index --add --cacheinfo "100644,$2,$3" &&
		git write-tree' - "$1" "$blob" "$2") || fail "a tree with $2"
	rm -f "$TEST_TMP/idx"
	git -c user.email=t@t -c user.name=t commit-tree "$tree" -p "$1" -m "$ERRATA_TAG: $2 on $1" || fail "commit-tree"
}

fix_of() { commit_with "$1" "src/base/${ERRATA_TAG}_fix.c" fix.c; }

audit_with() {
	printf '%s %s %s: %s\n' "$2" "$3" "$ERRATA_TAG" "$1" > "errata-$1.txt"
	"$EVIDENT" audit --store "$S" --errata "errata-$1.txt" claim.md > "$1.out" 2>&1
	echo "$?" > "$1.rc"
	echo "== $1 (exit $(cat "$1.rc"))"
	cat "$1.out"
}

short() { echo "$1" | cut -c1-8; }
