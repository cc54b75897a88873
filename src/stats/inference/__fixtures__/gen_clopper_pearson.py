"""Reference values for the Clopper-Pearson exact interval (run offline:
`python3 gen_clopper_pearson.py`, writes clopper_pearson.json beside this script).

Each case is scipy.stats.binomtest(k, n).proportion_ci(confidence_level=level, method='exact'),
which inverts the binomial test through beta quantiles. The cases cover the ends (k = 0, k = n),
n = 1, a small audit (2 of 30, the Teanga Bench figure 0.8%-22.1%), large n and several levels.
"""
import json
import os

import scipy
from scipy import stats

here = os.path.dirname(os.path.abspath(__file__))
cases = [
    (2, 30, 0.95), (0, 30, 0.95), (30, 30, 0.95), (0, 1, 0.95), (1, 1, 0.95), (1, 2, 0.95),
    (5, 10, 0.95), (3, 10, 0.90), (3, 10, 0.99), (1, 20, 0.95), (19, 20, 0.95), (7, 50, 0.95),
    (12, 200, 0.95), (500, 1000, 0.95), (1, 10000, 0.95), (9999, 10000, 0.99), (4, 7, 0.5),
    (0, 5, 0.999), (17, 23, 0.8),
]
out = []
for k, n, level in cases:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    out.append({"successes": k, "n": n, "level": level, "low": float(ci.low), "high": float(ci.high)})

with open(os.path.join(here, "clopper_pearson.json"), "w") as f:
    json.dump({"scipy": scipy.__version__, "cases": out}, f, indent=1)
    f.write("\n")
