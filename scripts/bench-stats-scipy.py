"""bench-stats-scipy.py - SciPy's side of `make bench-stats` (scripts/bench-stats).

Times, on the files `stats_bench gen DIR` wrote, scipy.stats.bootstrap
(BCa CI of the median, n = 1000, 10,000 resamples), scipy.stats.mannwhitneyu
(two-sided, n = 10^6 per group) and, as SciPy has no Cliff's delta, numpy's
sort + searchsorted version of it.  Prints "key<TAB>seconds<TAB>result"
lines (best of 3), the same format as the C driver.
"""
import sys
import time

import numpy as np
from scipy import stats


def best(fn, repeat=3):
    t_best, out = 1e30, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def delta_np(a, b):
    sb = np.sort(b)
    lt = np.searchsorted(sb, a, side="left")   # #(b < a_i)
    le = np.searchsorted(sb, a, side="right")  # #(b <= a_i)
    return (lt.sum() - (len(b) - le).sum()) / (len(a) * len(b))


def main():
    d = sys.argv[1]
    boot = np.loadtxt(d + "/boot.txt")
    a = np.loadtxt(d + "/big_a.txt")
    b = np.loadtxt(d + "/big_b.txt")

    t, r = best(lambda: stats.bootstrap((boot,), np.median, n_resamples=10000, method="BCa",
                                        confidence_level=0.95, random_state=1))
    print("bootstrap\t%.6f\t[%.4f, %.4f] bca" % (t, r.confidence_interval.low, r.confidence_interval.high))
    t, r = best(lambda: stats.mannwhitneyu(a, b, alternative="two-sided", use_continuity=True,
                                           method="asymptotic"))
    print("mwu\t%.6f\tU=%.1f p=%.6g" % (t, r.statistic, r.pvalue))
    t, r = best(lambda: delta_np(a, b))
    print("delta\t%.6f\tdelta=%.6f (numpy searchsorted)" % (t, r))


if __name__ == "__main__":
    main()
