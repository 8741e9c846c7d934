"""bench-stats-scipy.py - SciPy's side of `make bench-stats` (scripts/bench-stats).

usage: bench-stats-scipy.py DIR

Times, on the files `stats_bench gen DIR` wrote:
  - scipy.stats.bootstrap (BCa CI of the median, n = 1000, 10,000 resamples),
    scipy.stats.mannwhitneyu (two-sided, n = 10^6 per group) and, as SciPy
    has no Cliff's delta, numpy's sort + searchsorted version of it;
  - "whole", for n = 10^5, 10^6, 10^7 per side: what one `evident stats A B`
    computes, done with numpy/SciPy: read both files, per side the summary
    (mean, sd, median, p5/p95, MAD, Tukey outliers) and a bootstrap CI of the
    median, then Mann-Whitney U, Cliff's delta, and bootstrap CIs of the ratio
    of medians and of delta, 10,000 resamples each.  At these sizes SciPy's
    BCa needs an O(n^2) jackknife and 10,000 resamples of 10^7 values
    take hours, so the bootstrap part is timed with method='percentile' on
    fewer resamples and scaled linearly to 10,000 (reported as "~"); every
    other part is measured.
Prints "key<TAB>seconds<TAB>result" lines (best of 3 for the small rows, one
run for the whole ones), the same format as the C driver.
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


def delta_vec(a, b, axis=-1):
    """Cliff's delta for bootstrap batches (rows of a against rows of b)."""
    a = np.atleast_2d(a)
    b = np.atleast_2d(b)
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = delta_np(a[i], b[i])
    return out


def summary(x):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    med = np.median(x)
    return (x.mean(), x.std(ddof=1), med, np.percentile(x, [5, 95]), np.median(np.abs(x - med)),
            int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum()))


def whole(d, e, resamples):
    """One `evident stats` worth of work at n = 10^e; returns (seconds, note)."""
    t0 = time.perf_counter()
    a = np.loadtxt("%s/n%d_a.txt" % (d, e))
    b = np.loadtxt("%s/n%d_b.txt" % (d, e))
    t_load = time.perf_counter() - t0
    t = time.perf_counter()
    summary(a)
    summary(b)
    u = stats.mannwhitneyu(a, b, alternative="two-sided", use_continuity=True, method="asymptotic")
    dl = delta_np(a, b)
    t_direct = time.perf_counter() - t
    batch = max(1, 10 ** 7 // len(a))
    t = time.perf_counter()
    kw = dict(n_resamples=resamples, method="percentile", random_state=1, batch=batch)
    stats.bootstrap((a,), np.median, **kw)
    stats.bootstrap((b,), np.median, **kw)
    stats.bootstrap((a, b), lambda x, y, axis=-1: np.median(x, axis=axis) / np.median(y, axis=axis), **kw)
    stats.bootstrap((a, b), delta_vec, vectorized=True, **kw)
    t_boot = (time.perf_counter() - t) * 10000 / resamples
    total = t_load + t_direct + t_boot
    note = ("load %.2fs + summaries/U/delta %.2fs + bootstrap ~%.1fs (%d resamples x %d)"
            % (t_load, t_direct, t_boot, resamples, 10000 // resamples))
    return total, note + "; p=%.3g delta=%.4f" % (u.pvalue, dl)


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
    sys.stdout.flush()
    for e, resamples in ((5, 200), (6, 20), (7, 2)):
        t, note = whole(d, e, resamples)
        print("whole%d\t%.6f\t%s" % (e, t, note))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
