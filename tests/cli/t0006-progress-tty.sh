# on a terminal, run shows a progress line and colours outcomes (none with NO_COLOR); on a pipe, neither
. "$REPO/tests/cli/lib.sh"
command -v script >/dev/null 2>&1 || skip "script(1) is not installed (util-linux)"
mkrepo
script -qec "$EVIDENT run tests/fixtures/specs/tiny.yaml" /dev/null > "$TEST_TMP/tty" 2>&1 || fail "run on a pty"
grep -qE '\[2/2\] (blocked|naive): ' "$TEST_TMP/tty" || { cat -v "$TEST_TMP/tty"; fail "no progress line on a terminal"; }
grep -q $'\033\[32mok' "$TEST_TMP/tty" || fail "no colour on a terminal"
NO_COLOR=1 script -qec "$EVIDENT run tests/fixtures/specs/tiny.yaml" /dev/null > "$TEST_TMP/tty2" 2>&1 || fail "run with NO_COLOR"
! grep -q $'\033\[32m' "$TEST_TMP/tty2" || fail "colour despite NO_COLOR"
expect_exit 0 "$EVIDENT" run tests/fixtures/specs/tiny.yaml
! grep -q $'\033' "$TEST_TMP/out" "$TEST_TMP/err" || fail "escape sequences on a pipe"
expect_not_contains "$TEST_TMP/err" "[1/2]"
