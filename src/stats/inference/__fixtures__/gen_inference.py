"""Reference values for bootstrap intervals, t-tests and the Wilson interval (run offline:
`python3 gen_inference.py`, writes inference.json beside this script).

Bootstrap: the resample indices come from the independent Python reimplementation of Paideia's
PRNG (../../random/__fixtures__/random_reference.py), so the bootstrap distribution is the one the
TypeScript code draws; the interval is then computed by scipy itself: percentile bounds with
scipy.stats.quantile (as scipy.stats.bootstrap does) and BCa levels with scipy's own
`scipy.stats._resampling._bca_interval`. t-tests: scipy.stats.ttest_rel / ttest_ind(equal_var=False).
Wilson: the statsmodels formula (statsmodels is not installed) evaluated with scipy's norm.isf.
"""
import json
import os
import sys

import numpy as np
import scipy
from scipy import stats
from scipy.stats._resampling import _bca_interval

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "random", "__fixtures__"))
from random_reference import Rng  # noqa: E402

gen = np.random.default_rng(20261129)
datasets = {
    "skewed40": np.round(gen.exponential(2.0, 40), 3),
    "normal25": np.round(gen.normal(3.0, 1.5, 25), 4),
    "likert60": gen.integers(1, 6, 60).astype(float),
}
pa = np.round(gen.normal(0.7, 0.2, 50), 3)
pb = np.round(pa - gen.normal(0.05, 0.15, 50), 3)


def draw(seed, n, B):
    r = Rng(seed)
    return np.array([[r.int(n) for _ in range(n)] for _ in range(B)])


def interval(theta_b, data, statistic, alpha, method):
    if method == "bca":
        a1, a2, a_hat = _bca_interval(data, statistic, axis=-1, alpha=alpha, theta_hat_b=theta_b, batch=None, xp=np)
        q = [float(a1), float(a2)]
    else:
        q = [alpha, 1 - alpha]
        a_hat = None
    ci = stats.quantile(theta_b, np.array(q))
    return float(ci[0]), float(ci[1]), q, (None if a_hat is None else float(a_hat))


out = {"scipy": scipy.__version__, "numpy": np.__version__, "datasets": {k: v.tolist() for k, v in datasets.items()},
       "paired": {"a": pa.tolist(), "b": pb.tolist()}, "bootstrap": [], "paired_bootstrap": []}



def seq_mean(x, axis=-1):
    # Left-to-right summation as in the TypeScript fast path (numpy's mean sums pairwise); the
    # order matters for resample means that tie with 0 or with the estimate in the last bit.
    x = np.moveaxis(np.asarray(x), axis, -1)
    return np.add.accumulate(x, axis=-1)[..., -1] / x.shape[-1]


stats_fns = {"mean": seq_mean, "median": lambda x, axis=-1: np.median(x, axis=axis)}
cases = [("skewed40", "mean", 11, 2000, 0.95), ("skewed40", "median", 12, 1000, 0.9), ("normal25", "mean", 13, 1500, 0.99),
         ("likert60", "mean", 14, 999, 0.95), ("likert60", "median", 15, 500, 0.8)]
for name, stat, seed, B, level in cases:
    x = datasets[name]
    idx = draw(seed, len(x), B)
    theta_b = stats_fns[stat](x[idx], axis=-1)
    est = float(stats_fns[stat](x))
    for method in ["percentile", "bca"]:
        lo, hi, q, a_hat = interval(theta_b, (x,), stats_fns[stat], (1 - level) / 2, method)
        out["bootstrap"].append({"data": name, "statistic": stat, "seed": seed, "resamples": B, "level": level,
                                 "method": method, "estimate": est, "low": lo, "high": hi, "quantile_levels": q,
                                 "acceleration": a_hat, "standard_error": float(np.std(theta_b, ddof=1)),
                                 "first_five": theta_b[:5].tolist()})


def med_diff(a, b, axis=-1):
    return np.median(a, axis=axis) - np.median(b, axis=axis)


for stat, seed, B, level in [("meanDifference", 21, 2000, 0.95), ("medianDifference", 22, 800, 0.95)]:
    n = len(pa)
    idx = draw(seed, n, B)
    if stat == "meanDifference":
        d = pa - pb
        theta_b = seq_mean(d[idx])
        data, fn, est = (d,), seq_mean, float(seq_mean(d))
    else:
        theta_b = med_diff(pa[idx], pb[idx])
        data = (np.arange(n),)
        fn = lambda i, axis=-1: med_diff(pa[i], pb[i], axis=-1)  # noqa: E731
        est = float(med_diff(pa, pb))
    for method in ["percentile", "bca"]:
        lo, hi, q, a_hat = interval(theta_b, data, fn, (1 - level) / 2, method)
        out["paired_bootstrap"].append({"statistic": stat, "seed": seed, "resamples": B, "level": level, "method": method,
                                        "difference": est, "low": lo, "high": hi, "acceleration": a_hat,
                                        "p_one_sided": float(np.mean(theta_b <= 0)),
                                        "standard_error": float(np.std(theta_b, ddof=1))})

tt = []
samples = {
    "pa_pb": (pa, pb),
    "small": (np.array([1.2, 3.4, 2.2, 5.0]), np.array([0.9, 2.7, 2.9, 4.1])),
    "ints": (datasets["likert60"][:30], datasets["likert60"][30:]),
}
for name, (a, b) in samples.items():
    for level in [0.95, 0.9]:
        r = stats.ttest_rel(a, b)
        ci = r.confidence_interval(level)
        w = stats.ttest_ind(a, b, equal_var=False)
        wci = w.confidence_interval(level)
        tt.append({"name": name, "a": a.tolist(), "b": b.tolist(), "level": level,
                   "paired": {"t": float(r.statistic), "df": float(r.df), "p": float(r.pvalue), "low": float(ci.low), "high": float(ci.high)},
                   "welch": {"t": float(w.statistic), "df": float(w.df), "p": float(w.pvalue), "low": float(wci.low), "high": float(wci.high)}})
# unequal sizes for Welch
a = datasets["skewed40"]
b = datasets["normal25"]
w = stats.ttest_ind(a, b, equal_var=False)
wci = w.confidence_interval(0.95)
tt.append({"name": "unequal_sizes", "a": a.tolist(), "b": b.tolist(), "level": 0.95, "paired": None,
           "welch": {"t": float(w.statistic), "df": float(w.df), "p": float(w.pvalue), "low": float(wci.low), "high": float(wci.high)}})
out["ttests"] = tt

wil = []
for k, n, level in [(0, 10, 0.95), (1, 10, 0.95), (5, 10, 0.95), (10, 10, 0.95), (37, 120, 0.9), (812, 1000, 0.99), (3, 7, 0.5)]:
    crit = stats.norm.isf((1 - level) / 2)
    q = k / n
    denom = 1 + crit**2 / n
    centre = (q + crit**2 / (2 * n)) / denom
    dist = crit * np.sqrt(q * (1 - q) / n + crit**2 / (4 * n**2)) / denom
    wil.append({"successes": k, "n": n, "level": level, "low": float(centre - dist), "high": float(centre + dist)})
out["wilson"] = wil



def nan_to_null(v):
    # JSON has no NaN: written as null, as in test/conformance.
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, dict):
        return {k: nan_to_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [nan_to_null(x) for x in v]
    return v


json.dump(nan_to_null(out), open(os.path.join(here, "inference.json"), "w"), indent=1, allow_nan=False)
