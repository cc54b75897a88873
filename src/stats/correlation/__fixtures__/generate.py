"""Offline generator of extra scipy reference values for src/stats/correlation tests.

Run from this folder:  python3 generate.py
Needs numpy and scipy (values in the JSON were produced with the versions recorded in each file).
Nothing here runs during tests; the tests read the JSON files only.
"""
import json
import math

import numpy as np
import scipy
from scipy import special, stats

META = {"generator": "src/stats/correlation/__fixtures__/generate.py",
        "scipy": scipy.__version__, "numpy": np.__version__}


def num(v):
    v = float(v)
    return None if math.isnan(v) else v


def dump(name, payload):
    with open(name, "w") as f:
        json.dump({**META, **payload}, f, indent=1)
        f.write("\n")


def special_values():
    beta = []
    for a in [0.5, 1.0, 2.5, 7.0, 15.5, 60.0, 1000.0, 5e5]:
        for b in [0.5, 1.0, 3.0, 12.0, 200.0]:
            for x in [1e-8, 0.001, 0.1, 0.37, 0.5, 0.8, 0.99, 0.999999]:
                beta.append({"a": a, "b": b, "x": x, "value": num(special.betainc(a, b, x))})
    t_two_sided = []
    for df in [1, 2, 3, 5, 10, 29, 100, 1234, 99998, 999998]:
        for t in [0.0, 0.01, 0.5, 1.0, 1.96, 3.3, 8.0, 25.0, 200.0]:
            t_two_sided.append({"t": t, "df": df, "p": num(2 * special.stdtr(df, -abs(t)))})
    normal_cdf = [{"z": z, "cdf": num(special.ndtr(z))}
                  for z in [-38.0, -30.0, -20.0, -10.0, -6.0, -3.0, -1.7, -1.0, -0.3, -1e-6, 0.0,
                            1e-6, 0.4, 1.2, 2.5, 5.0, 8.0]]
    normal_ppf = [{"p": p, "z": num(special.ndtri(p))}
                  for p in [1e-300, 1e-100, 1e-20, 1e-8, 0.001, 0.025, 0.035, 0.1, 0.3, 0.5, 0.6, 0.975, 0.999]]
    dump("special.json", {
        "description": "scipy.special references: betainc(a, b, x); two-sided Student t p = 2*stdtr(df, -|t|); ndtr; ndtri.",
        "betainc": beta, "t_two_sided": t_two_sided, "normal_cdf": normal_cdf, "normal_ppf": normal_ppf})


def spearman_values():
    rng = np.random.default_rng(20260401)
    cases = []

    def add(name, x, y):
        r = stats.spearmanr(x, y)
        cases.append({"name": name, "x": [float(v) for v in x], "y": [float(v) for v in y],
                      "rho": num(r.statistic), "p": num(r.pvalue)})

    add("n3", [1.0, 2.0, 3.0], [2.0, 1.0, 3.0])
    add("n2", [1.0, 2.0], [3.0, 1.0])
    add("perfect_positive", list(range(10)), [v * v for v in range(10)])
    add("perfect_negative_ties", [1, 1, 2, 3, 3], [9, 9, 4, 1, 1])
    for n in [5, 12, 40, 300]:
        x = np.round(rng.normal(size=n), 6)
        add(f"continuous_n{n}", x, np.round(0.4 * x + rng.normal(size=n), 6))
    for n in [8, 25, 200, 2000]:
        x = rng.integers(1, 6, size=n)
        add(f"likert_ties_n{n}", x, np.clip(x + rng.integers(-2, 3, size=n), 1, 5))
    x = np.round(rng.normal(size=2500), 6)
    add("weak_n2500", x, np.round(0.02 * x + rng.normal(size=2500), 6))
    with np.errstate(all="ignore"):
        import warnings
        warnings.simplefilter("ignore")
        add("constant_x", [2, 2, 2, 2], [1, 2, 3, 4])
    dump("spearman.json", {"description": "scipy.stats.spearmanr(x, y): rho and two-sided p (null = NaN).",
                           "cases": cases})


def kendall_values():
    rng = np.random.default_rng(20260402)
    cases = []

    def add(name, x, y):
        x = np.round(np.asarray(x, dtype=float), 6)
        y = np.round(np.asarray(y, dtype=float), 6)
        b = stats.kendalltau(x, y)
        c = stats.kendalltau(x, y, variant="c")
        cases.append({"name": name, "x": x.tolist(), "y": y.tolist(), "tau_b": num(b.statistic),
                      "tau_c": num(c.statistic), "p": num(b.pvalue)})

    for n in [3, 12, 25, 33]:
        x = rng.permutation(n)
        add(f"exact_no_ties_n{n}", x, x + rng.normal(scale=n / 3, size=n))
    add("asymptotic_no_ties_n34", np.arange(34), np.arange(34) + rng.normal(scale=10, size=34))
    # scipy also uses the exact p for larger n when at most one pair is discordant (or concordant).
    y = np.arange(60.0)
    y[[10, 11]] = y[[11, 10]]
    add("exact_one_discordant_n60", np.arange(60), y)
    add("exact_one_concordant_n200", np.arange(200), np.r_[198.0, 199.0, np.arange(197.0, -1, -1)])
    add("exact_perfect_n180", np.arange(180), np.arange(180))
    for n in [40, 500, 3000]:
        x = rng.integers(0, 7, size=n)
        add(f"ties_n{n}", x, x + rng.integers(0, 4, size=n))
    add("one_tie_n20", np.r_[np.arange(19), 18], np.arange(20))
    dump("kendall_extra.json", {"description": "scipy.stats.kendalltau (method='auto'), variant b and c; p is two-sided and the same for both variants.",
                                "cases": cases})


def slope_values():
    rng = np.random.default_rng(20260403)
    theil, siegel = [], []
    inputs = []
    for n in [7, 31, 120]:
        x = np.round(rng.normal(size=n), 6)
        inputs.append((f"continuous_n{n}", x, np.round(1.5 * x + rng.standard_t(2, size=n), 6)))
    for n in [16, 51, 200]:
        x = rng.integers(1, 8, size=n).astype(float)
        inputs.append((f"ordinal_n{n}", x, np.round(0.3 * x + rng.normal(size=n), 1)))
    # Large enough (> 200,000 slopes) for theilSen's sampled-bracket path and siegel's
    # sampled row classification.
    x = np.round(rng.normal(size=800), 6)
    big = [("continuous_n800", x, np.round(0.7 * x + rng.standard_t(3, size=800), 6))]
    x = rng.integers(1, 8, size=1000).astype(float)
    big.append(("ordinal_n1000", x, np.round(0.3 * x + rng.normal(size=1000), 1)))
    inputs.append(("all_x_equal", np.full(6, 3.0), np.arange(6.0)))
    inputs.append(("negative_sen_variance", np.array([0.0, 0.0, 0.0, 1.0]), np.full(4, 5.0)))
    import warnings
    warnings.simplefilter("ignore")
    for name, x, y in inputs + big:
        for alpha in ([0.95, 0.5, 0.8, 0.01] if len(x) < 500 else [0.95, 0.8]):
            s = stats.theilslopes(y, x, alpha=alpha)
            j = stats.theilslopes(y, x, alpha=alpha, method="joint")
            theil.append({"name": f"{name}_alpha{alpha}", "x": x.tolist(), "y": y.tolist(), "alpha": alpha,
                          "slope": num(s.slope), "intercept_separate": num(s.intercept),
                          "intercept_joint": num(j.intercept), "low": num(s.low_slope), "high": num(s.high_slope)})
        if name == "all_x_equal":
            # scipy 1.17's compiled siegelslopes takes medians of empty arrays here and returns
            # uninitialised memory (e.g. 2.3e-310); the tests pin NaN for this case instead.
            continue
        h = stats.siegelslopes(y, x)
        sep = stats.siegelslopes(y, x, method="separate")
        siegel.append({"name": name, "x": x.tolist(), "y": y.tolist(), "slope": num(h.slope),
                       "intercept_hierarchical": num(h.intercept), "intercept_separate": num(sep.intercept)})
    dump("slopes_extra.json", {"description": "scipy.stats.theilslopes(y, x, alpha, method) and siegelslopes(y, x, method); note scipy's (y, x) argument order.",
                               "theilslopes": theil, "siegelslopes": siegel})


if __name__ == "__main__":
    special_values()
    spearman_values()
    kendall_values()
    slope_values()
