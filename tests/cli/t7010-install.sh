# t7010 - make install puts the runner, the CUDA harness (where it was
# built) and evident(1) under DESTDIR/PREFIX, the installed runner answers
# --version and help as the built one does, the harness sits where the
# runner looks for it (<bin>/../lib), the man page renders without warnings
# and holds every paragraph of `evident help` and of each `evident help
# COMMAND`, word for word; make uninstall leaves no file behind
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it installs the plain build (make install) and checks it against the plain runner"
command -v make >/dev/null || skip "make is not installed"
D=$TEST_TMP/dest P=/opt/evident
expect_exit 0 make -C "$REPO" --no-print-directory install DESTDIR="$D" PREFIX="$P"
bin=$D$P/bin/evident page=$D$P/share/man/man1/evident.1
[ -x "$bin" ] || fail "no executable $bin"
[ -f "$page" ] || fail "no man page $page"
if [ -f "$REPO/lib/libevident_cuda.so" ]; then
	h=$(dirname "$bin")/../lib/libevident_cuda.so     # harness_path()'s rule
	cmp -s "$h" "$REPO/lib/libevident_cuda.so" || fail "the harness is not at $h"
else
	expect_contains "$TEST_TMP/out" "no CUDA harness built here"
fi

expect_exit 0 "$bin" --version
expect_eq "$(cat "$TEST_TMP/out")" "$("$EVIDENT" --version)" "--version of the installed runner"
expect_exit 0 "$bin" help
"$EVIDENT" help > help.txt
cmp -s "$TEST_TMP/out" help.txt || fail "the installed runner's help differs from the built one's"

# the page: each block of the help texts, word for word, in the rendered page
cmds=$(awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }' help.txt)
[ -n "$cmds" ] || fail "no commands in 'evident help'"
if command -v groff >/dev/null; then
	groff -man -ww -z "$page" 2> warn.txt; [ ! -s warn.txt ] || { cat warn.txt; fail "groff warns about the page"; }
	words() { tr -s ' \n\t' '   ' | sed 's/^ //; s/ $//'; }
	LC_ALL=C groff -man -Tascii -P-cbou "$page" 2>/dev/null | words > page.txt
	grep -q "NAME evident - reproducible experiment pipeline" page.txt || fail "no NAME line"
	for c in top $cmds; do
		[ "$c" = help ] && continue
		if [ "$c" = top ]; then cp help.txt one.txt; else
			"$EVIDENT" help "$c" > one.txt || fail "evident help $c"
			grep -q "evident $c " page.txt || fail "no section for '$c' in the page"
		fi
		# one paragraph per line, the "usage:" word dropped (the page has SYNOPSIS)
		awk -v RS= '{ gsub(/usage: /, ""); gsub(/\n/, " "); print }' one.txt | while IFS= read -r para; do
			w=$(printf '%s' "$para" | words)
			grep -qF -- "$w" page.txt || fail "'evident help $c': not in the page: $w"
		done || exit 1
	done
	if command -v man >/dev/null; then
		man --warnings -l "$page" > /dev/null 2> warn.txt || fail "man -l failed"
		[ ! -s warn.txt ] || { cat warn.txt; fail "man warns about the page"; }
	fi
else
	echo "note: groff is not installed; the page's rendering is not checked"
fi

expect_exit 0 make -C "$REPO" --no-print-directory uninstall DESTDIR="$D" PREFIX="$P"
left=$(find "$D" ! -type d)
[ -z "$left" ] || fail "uninstall left: $left"
exit 0
