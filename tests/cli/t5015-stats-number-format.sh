#!/usr/bin/env bash
# Samples are plain decimals: signs, '.5', '5.', exponents are read; hex,
# trailing text and numbers a double cannot hold are errors naming FILE:LINE
# (exit 1, nothing on stdout).
. "$REPO/tests/cli/lib.sh"
printf '%s\n' 12 -3.5 .5 5. 1e-3 +2.5E+4 0e-999 >ok.txt
printf '1\n2\n3\n' >b.txt
expect_exit 0 "$EVIDENT" stats --json --resamples 200 ok.txt b.txt
expect_contains "$TEST_TMP/out" '"a": {"n": 7, "median": 0.5, "mean": 3573.42871428571, "min": -3.5, "max": 25000.0,'
bad() { # file content, expected error tail
	printf '1\n2\n%s\n' "$1" >bad.txt
	expect_exit 1 "$EVIDENT" stats bad.txt b.txt
	expect_eq "$(cat "$TEST_TMP/err")" "error: 'bad.txt' line 3: '$1' $2"
	expect_eq "$(wc -c <"$TEST_TMP/out")" 0 "nothing on stdout for '$1'"
}
bad 0x1p3 "is a hexadecimal number; write samples as plain decimals such as 12.5 or 1e-3"
bad 1.5us "is not a number (one sample per line; '#' starts a comment)"
bad 1e "is not a number (one sample per line; '#' starts a comment)"
bad 1_000 "is not a number (one sample per line; '#' starts a comment)"
bad -1e400 "is out of range: larger in magnitude than the largest double (about 1.8e308)"
bad 1e-400 "is out of range: not 0 but smaller in magnitude than the smallest normal double (about 2.2e-308); write 0 or a larger value"
bad 4e-320 "is out of range: not 0 but smaller in magnitude than the smallest normal double (about 2.2e-308); write 0 or a larger value"
