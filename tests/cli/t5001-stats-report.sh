#!/usr/bin/env bash
# The readable report of a clear win, exactly (fixed default seed), exit 0.
. "$REPO/tests/cli/lib.sh"
printf '%s\n' 10.2 10.4 10.1 10.3 10.6 10.5 10.0 10.7 10.9 10.8 >a.txt
printf '%s\n' '# candidate, us' 9.1 9.3 9.0 9.2 '' 9.5 9.4 8.9 9.6 9.8 9.7 >b.txt
expect_exit 0 "$EVIDENT" stats a.txt b.txt
cat >expect <<'END'
a (baseline): 'a.txt'
  n 10   min 10   max 10.9   mean 10.45   stdev 0.302765
  median 10.45   95% CI [10.2, 10.7] (bca)
  p5 10.045   p95 10.855   MAD 0.25   outliers 0 mild, 0 extreme (Tukey 1.5/3 IQR)
b (candidate): 'b.txt'
  n 10   min 8.9   max 9.8   mean 9.35   stdev 0.302765
  median 9.35   95% CI [9.1, 9.6] (bca)
  p5 8.945   p95 9.755   MAD 0.25   outliers 0 mild, 0 extreme (Tukey 1.5/3 IQR)

Mann-Whitney U (two-sided, exact): U = 100, p = 1.083e-05
Cliff's delta: 1.0000, 95% CI [1.0000, 1.0000] (percentile), large
speedup median(a)/median(b): 1.1176x, 95% CI [1.0741, 1.1615] (bca)
verdict: faster (significant, speedup CI above the noise band, Cliff's delta CI above 0; alpha 0.05, noise band [0.99, 1.01])
smallest detectable speedup: 1.0503x (about half the time, at this CI's width)
bootstrap: 10000 resamples, seed 1 (mt19937)
END
diff -u expect "$TEST_TMP/out" || fail "report differs"
expect_eq "$(wc -c <"$TEST_TMP/err")" 0 "nothing on stderr"
