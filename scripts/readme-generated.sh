#!/usr/bin/env bash
# readme-generated.sh - the generated blocks of README.md.  A block is
#
#   <!-- generated: evident help spec --markdown -->
#   ...the output of that command...
#   <!-- /generated -->
#
# so README's reference tables (spec keys, outcomes, exit codes) are the
# tables the code prints from the lists that own them, and cannot drift.
#
#   scripts/readme-generated.sh BIN [FILE]          rewrite every block of FILE
#   scripts/readme-generated.sh --check BIN [FILE]  change nothing; exit 1 and
#                                                   show a diff if a block differs
#
# BIN is the evident binary (bin/evident), FILE defaults to README.md.  The
# command of a block must be `evident` followed by plain words (letters,
# digits, - _ .); it runs as BIN with those words, no shell.  Text outside
# the blocks is never touched.  tests/cli/t0082 runs --check.
set -uo pipefail

check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: scripts/readme-generated.sh [--check] BIN [FILE]" >&2; exit 2; }
bin=$1
file=${2:-README.md}
[ -x "$bin" ] || { echo "error: readme-generated: '$bin' is not an executable (build it with make)" >&2; exit 2; }
[ -f "$file" ] || { echo "error: readme-generated: no file '$file'" >&2; exit 2; }

# the new text goes beside FILE and replaces it by rename: never half-written
tmp=$(mktemp "$(dirname "$file")/.readme-generated.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT

open_re='^<!-- generated: (evident( [A-Za-z0-9_.-]+)+) -->$'
n=0 inblock=0 start=0 blocks=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	if [ $inblock = 1 ]; then
		if [ "$line" = "<!-- /generated -->" ]; then
			printf '%s\n' "$line" >>"$tmp"
			inblock=0
		elif [[ $line == "<!-- generated:"* ]]; then
			echo "error: $file:$start: the generated block has no closing '<!-- /generated -->' line (another begins at line $n)" >&2
			exit 1
		fi
		continue
	fi
	printf '%s\n' "$line" >>"$tmp"
	if [[ $line =~ $open_re ]]; then
		read -r -a words <<<"${BASH_REMATCH[1]}"
		if ! "$bin" "${words[@]:1}" >>"$tmp"; then
			echo "error: $file:$n: '${BASH_REMATCH[1]}' failed; fix the command or the marker" >&2
			exit 1
		fi
		inblock=1 start=$n blocks=$((blocks + 1))
	elif [[ $line == "<!-- generated:"* ]]; then
		echo "error: $file:$n: a generated-block marker must read '<!-- generated: evident WORDS -->'" >&2
		exit 1
	fi
done <"$file"
if [ $inblock = 1 ]; then
	echo "error: $file:$start: the generated block has no closing '<!-- /generated -->' line" >&2
	exit 1
fi

if cmp -s "$tmp" "$file"; then
	exit 0
fi
if [ $check = 1 ]; then
	echo "error: $file: a generated block differs from what evident prints; run 'scripts/readme-generated.sh $bin $file'" >&2
	diff -u "$file" "$tmp" | sed "s|^+++ $tmp|+++ generated|" >&2
	exit 1
fi
chmod --reference="$file" "$tmp" && mv "$tmp" "$file" || exit 1
echo "$file: $blocks generated block(s) rewritten"
