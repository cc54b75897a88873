"""Reference values for pearson(): scipy.stats.pearsonr (two-sided). Run: python3 gen_pearson.py > pearson.json"""
import json
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261201)
cases = []
def add(name, x, y):
    r = stats.pearsonr(x, y)
    cases.append({"name": name, "x": list(map(float, x)), "y": list(map(float, y)),
                  "r": float(r.statistic), "pValue": float(r.pvalue)})

add("small_hand", [1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
add("n3", [1, 2, 4], [1, 3, 2])
add("perfect_negative", [1, 2, 3, 4], [8, 6, 4, 2])
x = rng.integers(1, 8, 40); add("ordinal_1_7_n40", x, x + rng.integers(-2, 3, 40))
x = rng.normal(size=200); add("normal_n200_weak", x, 0.1 * x + rng.normal(size=200))
x = rng.normal(size=30) * 1e6 + 1e9; add("large_offset", x, x * 2 + rng.normal(size=30) * 1e5)
print(json.dumps({"generator": f"scipy {__import__('scipy').__version__} stats.pearsonr, numpy default_rng(20261201)", "cases": cases}, indent=1))
