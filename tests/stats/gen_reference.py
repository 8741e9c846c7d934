#!/usr/bin/python3
"""gen_reference.py - regenerates tests/stats/reference.json, the values
evident's statistics are checked against (tests/unit/test_stats.c).

Data sets are drawn here with a fixed numpy seed, then
  - R 4.2 (Rscript reference.R): wilcox.test(a, b, correct = TRUE) statistic,
    p-value and regime; mean, sd, median, type-7 p5/p95, mad(constant = 1),
    Tukey outlier counts; Cliff's delta by all pairs; p.adjust(holm);
  - SciPy: mannwhitneyu statistic and p ('exact' where R is exact, else
    'asymptotic' with continuity), as a cross-check of R;
  - SciPy bootstrap(method='BCa', 10,000 resamples) CIs of the median, of the
    ratio of medians and of Cliff's delta: other random numbers than ours, so
    the test allows Monte Carlo slack;
  - SciPy's own BCa formula (scipy.stats._resampling._bca_interval) applied to
    a bootstrap distribution drawn here and stored in the file: evident's
    interval from the same distribution must agree to rounding.
Needs the Debian packages r-base-core and python3-scipy (not needed by CI).
Run from anywhere:  /usr/bin/python3 tests/stats/gen_reference.py
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy
from scipy import stats
from scipy.stats import _resampling

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261122)


def cases():
    n = rng.normal
    c = []
    c.append(("exact_5_6", n(10, 1, 5), n(11, 1, 6)))
    c.append(("exact_10_12", n(100, 5, 10), n(103, 5, 12)))
    c.append(("exact_30_40_lognormal", rng.lognormal(3, 0.3, 30), rng.lognormal(3.2, 0.3, 40)))
    c.append(("exact_49_49", n(50, 2, 49), n(50.8, 2, 49)))
    c.append(("exact_separated_8_9", 10 + rng.random(8), 1 + rng.random(9)))
    c.append(("exact_1_5", np.array([5.5]), n(5, 1, 5)))
    c.append(("exact_3_40", n(7, 1, 3), n(6, 1, 40)))
    c.append(("exact_center_4_4", np.array([1.0, 4, 5, 8]), np.array([2.0, 3, 6, 7])))
    c.append(("exact_same_dist_20_25", n(321, 4, 20), n(321, 4, 25)))
    c.append(("exact_tiny_p_40_45", n(100, 1, 40), n(110, 1, 45)))
    c.append(("ties_small_10_10", np.round(n(10, 2, 10)), np.round(n(11, 2, 10))))
    c.append(("normal_50_50", n(20, 3, 50), n(21, 3, 50)))
    c.append(("normal_200_300_lognormal", rng.lognormal(1, 0.5, 200), rng.lognormal(1.1, 0.5, 300)))
    c.append(("heavy_cauchy_100_100", rng.standard_cauchy(100), 0.5 + rng.standard_cauchy(100)))
    c.append(("heavy_pareto_150_120", 1 + rng.pareto(1.5, 150), 1 + rng.pareto(1.2, 120)))
    x = n(30, 2, 20)
    c.append(("identical_20", x, x.copy()))
    c.append(("a_constant_15_15", np.full(15, 5.0), n(5, 1, 15)))
    c.append(("both_constant_equal_10_12", np.full(10, 3.0), np.full(12, 3.0)))
    c.append(("both_constant_diff_10_10", np.full(10, 1.0), np.full(10, 2.0)))
    c.append(("ties_large_2000_2000", np.round(n(321, 3, 2000), 1), np.round(n(320.5, 3, 2000), 1)))
    c.append(("times_quantized_1000_1000", np.round(321 + rng.gamma(2, 0.5, 1000), 2),
              np.round(320.95 + rng.gamma(2, 0.5, 1000), 2)))
    c.append(("normal_tiny_p_500_500", n(10, 1, 500), n(12, 1, 500)))
    c.append(("outliers_60_60", np.concatenate([n(100, 1, 55), [110, 112, 130, 131, 80]]),
              np.concatenate([n(99, 1, 58), [70, 140]])))
    return c


HOLM_P = [0.01, 0.04, 0.03, 0.005, float("nan"), 0.5, 0.04, 0.2]


def ci(res):
    """A CI as a list, None where SciPy could not compute it (degenerate data)."""
    v = [float(res.confidence_interval.low), float(res.confidence_interval.high)]
    return None if any(np.isnan(x) for x in v) else v


def fmt(v):
    return "NA" if np.isnan(v) else "%.17g" % v


def run_r(cs):
    with tempfile.TemporaryDirectory() as d:
        inp, outp = os.path.join(d, "cases.txt"), os.path.join(d, "out.txt")
        with open(inp, "w") as f:
            for name, a, b in cs:
                f.write("%s\ta\t%s\n" % (name, " ".join(fmt(v) for v in a)))
                f.write("%s\tb\t%s\n" % (name, " ".join(fmt(v) for v in b)))
            f.write("holm\tp\t%s\n" % " ".join(fmt(v) for v in HOLM_P))
        subprocess.run(["Rscript", os.path.join(HERE, "reference.R"), inp, outp], check=True)
        r = {}
        with open(outp) as f:
            for ln in f:
                name, key, val = ln.rstrip("\n").split("\t")
                r.setdefault(name, {})[key] = float(val)
        rver = subprocess.run(["Rscript", "-e", "cat(R.version.string)"], capture_output=True,
                              text=True, check=True).stdout
    return r, rver


def median(x, axis=-1):
    return np.median(x, axis=axis)


def ratio(a, b, axis=-1):
    return np.median(a, axis=axis) / np.median(b, axis=axis)


def cliff(a, b, axis=-1):
    a = np.moveaxis(a, axis, -1)
    b = np.moveaxis(b, axis, -1)
    return np.sign(a[..., :, None] - b[..., None, :]).mean(axis=(-2, -1))


def bca_fixed(data, stat, nboot, seed):
    """A bootstrap distribution drawn here, and SciPy's BCa interval from it."""
    g = np.random.default_rng(seed)
    res = [x[g.integers(0, len(x), (nboot, len(x)))] for x in data]
    theta_b = stat(*res, axis=-1)
    a1, a2, a_hat = _resampling._bca_interval(data, stat, axis=-1, alpha=0.025,
                                              theta_hat_b=theta_b, batch=None)
    lo = np.percentile(theta_b, a1 * 100)
    hi = np.percentile(theta_b, a2 * 100)
    return {"theta_b": [float(v) for v in theta_b], "ci": [float(lo), float(hi)],
            "a_hat": float(a_hat)}


def main():
    cs = cases()
    r, rver = run_r(cs)
    out = {"generator": "tests/stats/gen_reference.py", "r_version": rver,
           "scipy_version": scipy.__version__, "numpy_version": np.__version__,
           "holm": {"p": [None if np.isnan(v) else v for v in HOLM_P],
                    "adjusted": [None if np.isnan(r["holm"]["adj%d" % i]) else r["holm"]["adj%d" % i]
                                 for i in range(len(HOLM_P))]},
           "cases": []}
    worst = 0.0
    for k, (name, a, b) in enumerate(cs):
        rr = r[name]
        case = {"name": name, "a": [float(v) for v in a], "b": [float(v) for v in b],
                "r": {kk: (None if np.isnan(v) else v) for kk, v in rr.items()}}
        exact = rr["exact"] == 1
        sp = stats.mannwhitneyu(a, b, alternative="two-sided", use_continuity=True,
                                method="exact" if exact else "asymptotic")
        case["scipy_mwu"] = {"u": float(sp.statistic), "p": float(sp.pvalue)}
        if rr["p"] > 0:
            worst = max(worst, abs(sp.pvalue - rr["p"]) / rr["p"])
        smooth = len(np.unique(a)) > 5 and len(np.unique(b)) > 5
        if smooth and len(a) >= 10 and len(b) >= 10 and len(a) * len(b) <= 250000:
            seed = 1000 + k
            boot = {}
            for side, x in (("a", a), ("b", b)):
                res = stats.bootstrap((x,), median, n_resamples=10000, method="BCa",
                                      confidence_level=0.95, random_state=seed)
                boot["median_" + side] = ci(res)
            if a.min() > 0 and b.min() > 0:
                res = stats.bootstrap((a, b), ratio, n_resamples=10000, method="BCa",
                                      confidence_level=0.95, random_state=seed)
                boot["ratio"] = ci(res)
            if len(a) * len(b) <= 10000:
                res = stats.bootstrap((a, b), cliff, n_resamples=10000, method="BCa",
                                      confidence_level=0.95, random_state=seed, batch=500)
                boot["delta"] = ci(res)
            case["scipy_bootstrap"] = boot
        out["cases"].append(case)
        print("%-28s u=%-10g p=%-12.6g exact=%d" % (name, rr["u"], rr["p"], exact), file=sys.stderr)
    print("max relative |p_scipy - p_R| / p_R = %.3g" % worst, file=sys.stderr)

    # BCa from fixed bootstrap distributions (stored), one per kind of statistic.
    by = {name: (a, b) for name, a, b in cs}
    a, b = by["exact_30_40_lognormal"]
    a2, b2 = by["normal_50_50"]
    a3, b3 = by["heavy_pareto_150_120"]
    out["bca_fixed"] = [
        dict(name="median_exact_30_40_lognormal_a", stat="median", case="exact_30_40_lognormal",
             **bca_fixed((a,), median, 2000, 1)),
        dict(name="median_heavy_pareto_150_120_b", stat="median", case="heavy_pareto_150_120",
             **bca_fixed((b3,), median, 2000, 2)),
        dict(name="ratio_exact_30_40_lognormal", stat="ratio", case="exact_30_40_lognormal",
             **bca_fixed((a, b), ratio, 2000, 3)),
        dict(name="delta_normal_50_50", stat="delta", case="normal_50_50",
             **bca_fixed((a2, b2), cliff, 2000, 4)),
    ]
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(out, f, indent=0, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
