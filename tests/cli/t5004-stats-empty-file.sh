#!/usr/bin/env bash
# A file with no samples (empty, or only comments) is an error; exit 1.
. "$REPO/tests/cli/lib.sh"
: >empty.txt
printf '# nothing yet\n\n' >comments.txt
printf '1\n2\n3\n' >b.txt
expect_exit 1 "$EVIDENT" stats empty.txt b.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'empty.txt' has no samples (one sample per line; '#' starts a comment)"
expect_exit 1 "$EVIDENT" stats b.txt comments.txt
expect_eq "$(cat "$TEST_TMP/err")" "error: 'comments.txt' has no samples (one sample per line; '#' starts a comment)"
