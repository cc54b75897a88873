"""Reference values for special functions and distributions, from scipy (run offline:
`python3 gen_distributions.py`). Writes distributions.json beside this script."""
import json
import numpy as np
import scipy
from scipy import special, stats

out = {"scipy": scipy.__version__, "numpy": np.__version__}
xs = [0.0, 1e-10, 0.1, 0.5, 0.9, 1.0, 1.5, 1.99, 2.0, 2.5, 3.0, 5.0, 8.0, 12.0, 20.0, 26.0]
out["erfc"] = [[x, float(special.erfc(x))] for x in xs + [-x for x in xs[1:8]]]
gs = [0.5, 1.0, 1.5, 2.0, 3.3, 10.0, 57.5, 1000.0, 12345.6]
out["gammaln"] = [[g, float(special.gammaln(g))] for g in gs]
zs = [-38.0, -20.0, -8.0, -5.0, -3.0, -1.96, -1.0, -0.1, 0.0, 0.3, 1.0, 1.6448536269514722, 2.5, 6.0, 8.5]
out["ndtr"] = [[z, float(special.ndtr(z))] for z in zs]
ps = [1e-300, 1e-50, 1e-10, 1e-4, 0.001, 0.01, 0.02425, 0.025, 0.05, 0.2, 0.5, 0.7, 0.975, 0.99, 0.999999, 1 - 1e-12]
out["ndtri"] = [[p, float(special.ndtri(p))] for p in ps]
beta_cases = []
for a, b in [(0.5, 0.5), (0.5, 2.0), (2.0, 0.5), (1.0, 1.0), (3.0, 7.0), (10.0, 0.5), (0.5, 40.0), (25.0, 30.0), (0.2, 0.3), (150.0, 0.5), (4000.0, 0.5), (12.5, 11.0)]:
    for x in [1e-8, 0.001, 0.1, 0.3, 0.5, 0.8, 0.97, 0.999]:
        beta_cases.append([a, b, x, float(special.betainc(a, b, x))])
out["betainc"] = beta_cases
binv = []
for a, b in [(0.5, 0.5), (0.5, 2.0), (2.0, 0.5), (3.0, 7.0), (10.0, 0.5), (25.0, 30.0), (0.2, 0.3), (150.0, 0.5), (4.5, 0.5)]:
    for p in [1e-10, 0.001, 0.025, 0.05, 0.3, 0.5, 0.9, 0.975, 0.999]:
        binv.append([a, b, p, float(special.betaincinv(a, b, p))])
out["betaincinv"] = binv
tc = []
for df in [1, 2, 3.5, 5, 9, 29, 100, 1234.5, 1e5]:
    for t in [-40.0, -6.0, -2.0, -0.5, 0.0, 0.3, 1.0, 2.2, 5.0, 25.0]:
        tc.append([t, df, float(stats.t.cdf(t, df)), float(2 * stats.t.sf(abs(t), df))])
out["t_cdf"] = tc
tq = []
for df in [1, 2, 3.5, 5, 9, 29, 100, 1234.5, 1e5]:
    for p in [1e-8, 0.001, 0.025, 0.05, 0.3, 0.5, 0.6, 0.95, 0.975, 0.995, 0.999999]:
        tq.append([p, df, float(stats.t.ppf(p, df))])
out["t_ppf"] = tq
fc = []
for d1, d2 in [(1, 1), (1, 10), (3, 27), (9, 9), (9, 90), (27.5, 4), (120, 300)]:
    for f in [0.01, 0.3, 1.0, 2.5, 7.0, 50.0, 1000.0]:
        fc.append([f, d1, d2, float(stats.f.cdf(f, d1, d2)), float(stats.f.sf(f, d1, d2))])
out["f_cdf"] = fc
fq = []
for d1, d2 in [(1, 1), (1, 10), (3, 27), (9, 9), (9, 90), (27.5, 4), (120, 300)]:
    for p in [0.001, 0.025, 0.05, 0.5, 0.95, 0.975, 0.999]:
        fq.append([p, d1, d2, float(stats.f.ppf(p, d1, d2))])
out["f_ppf"] = fq
json.dump(out, open(__file__.replace("gen_distributions.py", "distributions.json"), "w"), indent=1)
