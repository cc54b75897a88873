"""Reference values for Cohen's d (pooled and paired d_z), one-way ANOVA and, on the same
learning-shaped data (accuracies with many ties), the paired t-test. Run offline:
`python3 gen_effects.py`, writes effects.json beside this script.

scipy has no Cohen's d, so d is the textbook formula evaluated in numpy float64:
  pooled  d   = (mean(a) - mean(b)) / sqrt(((na-1) var(a) + (nb-1) var(b)) / (na + nb - 2)), var with ddof=1
  paired  d_z = mean(a - b) / sd(a - b, ddof=1)   (cross-checked: d_z = t_rel / sqrt(n))
One-way ANOVA: F and p from scipy.stats.f_oneway; eta^2 = SS_between / SS_total in numpy.
Paired t: scipy.stats.ttest_rel and its confidence_interval.
Undefined values (a zero standard deviation, all values equal) are written as null.
"""
import json
import math
import os

import numpy as np
import scipy
from scipy import stats

here = os.path.dirname(os.path.abspath(__file__))
gen = np.random.default_rng(20261201)


def num(v):
    """NaN as null, infinities as "inf" / "-inf" (JSON has neither)."""
    v = float(v)
    if math.isnan(v):
        return None
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


def pooled_d(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    na, nb = len(a), len(b)
    s = math.sqrt(((na - 1) * np.var(a, ddof=1 if na > 1 else 0) + (nb - 1) * np.var(b, ddof=1 if nb > 1 else 0)) / (na + nb - 2))
    return None if s == 0 else float((a.mean() - b.mean()) / s)


def dz(a, b):
    d = np.asarray(a, float) - np.asarray(b, float)
    s = float(np.std(d, ddof=1))
    return None if s == 0 else float(d.mean() / s)


acc = lambda n: (gen.integers(0, 6, n) / 5).tolist()  # accuracies on 5 items: ties everywhere
two = {
    "normal_20_25": (np.round(gen.normal(0.6, 0.2, 20), 3).tolist(), np.round(gen.normal(0.5, 0.25, 25), 3).tolist()),
    "accuracies_12_12": (acc(12), acc(12)),
    "small_2_1": ([0.2, 0.6], [0.4]),
    "small_2_2": ([1.0, 3.0], [2.0, 2.5]),
    "negative_effect": ([1, 2, 2, 3], [3, 4, 4, 5.5]),
    "zero_sd": ([0.5, 0.5, 0.5], [0.2, 0.2]),
}
pooled = [{"name": k, "a": a, "b": b, "d": pooled_d(a, b)} for k, (a, b) in two.items()]

pre = acc(15)
post = np.clip(np.array(pre) + gen.integers(-1, 3, 15) / 5, 0, 1).round(1).tolist()
pairs = {
    "gains_15": (post, pre),
    "normal_30": (np.round(gen.normal(0.7, 0.2, 30), 3).tolist(), np.round(gen.normal(0.6, 0.2, 30), 3).tolist()),
    "n2": ([0.4, 0.8], [0.2, 0.2]),
    "n3_ties": ([0.6, 0.6, 0.8], [0.2, 0.4, 0.4]),
    "constant_difference": ([3.0, 5.0, 9.0], [1.0, 3.0, 7.0]),  # exact in float64: sd(d) = 0
}
paired = []
for k, (a, b) in pairs.items():
    with np.errstate(all="ignore"):
        t = stats.ttest_rel(a, b)
    ci = t.confidence_interval(0.95)
    d = dz(a, b)
    if d is not None:
        assert abs(d - float(t.statistic) / math.sqrt(len(a))) < 1e-12
    paired.append({"name": k, "a": a, "b": b, "dz": d, "t": num(t.statistic), "df": float(t.df), "p": num(t.pvalue),
                   "low": num(ci.low), "high": num(ci.high)})

groups = {
    "three_normal": [np.round(gen.normal(m, 0.15, n), 3).tolist() for m, n in [(0.4, 8), (0.5, 10), (0.65, 7)]],
    "bands_ties": [acc(6), acc(5), acc(7)],
    "two_groups": [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0, 8.0]],
    "singleton_group": [[1.0, 2.0], [2.0, 3.0], [5.0]],
    "no_within_variance": [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]],
    "all_equal": [[0.5, 0.5], [0.5, 0.5, 0.5]],
}
anova = []
for k, gs in groups.items():
    with np.errstate(all="ignore"):
        r = stats.f_oneway(*gs)
    allv = np.concatenate([np.asarray(g, float) for g in gs])
    grand = allv.mean()
    ssb = sum(len(g) * (np.mean(g) - grand) ** 2 for g in gs)
    sst = float(((allv - grand) ** 2).sum())
    anova.append({"name": k, "groups": gs, "f": num(r.statistic),
                  "p": num(r.pvalue), "dfBetween": len(gs) - 1, "dfWithin": len(allv) - len(gs),
                  "etaSquared": None if sst == 0 else float(ssb / sst)})

out = {"generator": "src/stats/effect/__fixtures__/gen_effects.py", "scipy": scipy.__version__, "numpy": np.__version__,
       "pooled": pooled, "paired": paired, "anova": anova}
with open(os.path.join(here, "effects.json"), "w") as f:
    json.dump(out, f, indent=1)
