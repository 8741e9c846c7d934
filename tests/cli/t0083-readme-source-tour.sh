#!/usr/bin/env bash
# README's source tour names every file of src/ (in a code span), and names
# no file that does not exist: the tour is `ls src`, kept current.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it reads README.md and src/, never runs evident"
cd "$REPO" || fail "no repository"
tour=$(sed -n '/^## Source tour/,$p' README.md)
[ -n "$tour" ] || fail "README has no '## Source tour' section"
missing=""
for f in $(git ls-files src); do
	grep -qF "\`$f\`" <<<"$tour" || missing="$missing $f"
done
[ -z "$missing" ] || fail "README's source tour does not name:$missing"
stale=""
for f in $(grep -oE '`src/[^`]+`' <<<"$tour" | tr -d '`' | sort -u); do
	[ -e "$f" ] || stale="$stale $f"
done
[ -z "$stale" ] || fail "README's source tour names files that do not exist:$stale"
