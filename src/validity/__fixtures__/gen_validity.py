"""Reference values for `validity analyze`, computed independently with numpy/scipy.

Writes a small synthetic study to small/*.csv (numpy default_rng(424242)) and, to reference.json,
every deterministic figure the analyses report on it: tau-b, p-values and Pearson r (scipy), unit
averaging, bias-corrected dCor^2 (U-centred distance matrices, written out here), Theil-Sen and
Siegel slopes and the quartile Welch test (scipy), ANOVA-EMS variance components of the squared,
signed and rescaled-rating cells (by effect projections, not by T terms as Paideia does), and the
D-study grid under both conventions. Bootstrap intervals depend on Paideia's own PRNG and are
pinned by properties in the tests instead. Run: python3 gen_validity.py
"""
import csv, itertools, json, os
import numpy as np
from scipy import stats

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(424242)
ITEMS = {"clarity": (1, 5), "uptake": (1, 3)}
RATERS, PROMPTS, EXPERTS = ["ra", "rb", "rc"], ["base", "cot"], ["e1", "e2", "e3"]
units = [f"u{k}" for k in range(12)]
obs = [(f"o{k:02d}", units[k // 2]) for k in range(24)]
skill = {u: rng.normal() for u in units}
outcome = {u: round(0.3 * skill[u] + rng.normal(0, 0.5), 3) for u in units}

ratings, experts = [], []
for o, u in obs:
    for item, (lo, hi) in ITEMS.items():
        q = skill[u] + rng.normal(0, 0.7)
        for e in EXPERTS:
            experts.append((o, item, e, int(np.clip(np.rint((lo + hi) / 2 + q + rng.normal(0, 0.6)), lo, hi))))
        for r, p in itertools.product(RATERS, PROMPTS):
            if (o, item, r, p) == ("o05", "uptake", "rc", "cot"):
                continue
            for rep in (1, 2):
                v = int(np.clip(np.rint((lo + hi) / 2 + 0.6 * q + rng.normal(0, 0.8)), lo, hi))
                ratings.append((o, item, r, p, str(rep), "" if (o, item, r, p, rep) == ("o03", "clarity", "ra", "base", 2) else v))

def write(name, header, rows):
    with open(os.path.join(here, "small", name), "w", newline="") as f:
        w = csv.writer(f); w.writerow(header); w.writerows(rows)
write("ratings.csv", ["observation", "item", "rater", "prompt", "repeat", "score"], ratings)
write("experts.csv", ["observation", "item", "expert", "score"], experts)
write("scales.csv", ["item", "min", "max"], [(i, lo, hi) for i, (lo, hi) in ITEMS.items()])
write("observations.csv", ["observation", "unit", "words"], [(o, u, int(rng.integers(100, 900))) for o, u in obs])
write("outcomes.csv", ["unit", "outcome"], [(u, outcome[u]) for u in units])
write("weights.csv", ["rater", "weight"], [("ra", 0.5), ("rb", 0.3), ("rc", 0.2)])

O = [o for o, _ in obs]; U = units
unit_of = dict(obs)
def mean_or_nan(v): return float(np.mean(v)) if len(v) else float("nan")
series = {}
for r, p, item in itertools.product(RATERS, PROMPTS, ITEMS):
    series[(r, p, item)] = np.array([mean_or_nan([s for (o2, i2, r2, p2, _, s) in ratings if (o2, i2, r2, p2) == (o, item, r, p) and s != ""]) for o in O])
hmean = {item: np.array([np.mean([s for (o2, i2, _, s) in experts if (o2, i2) == (o, item)]) for o in O]) for item in ITEMS}
def per_unit(v):
    return np.array([mean_or_nan([v[k] for k, o in enumerate(O) if unit_of[o] == u and not np.isnan(v[k])]) for u in U])
y_out = np.array([outcome[u] for u in U])
def pairs(x, y):
    m = ~np.isnan(x) & ~np.isnan(y); return x[m], y[m]
def corr(x, y):
    x, y = pairs(x, y)
    t = stats.kendalltau(x, y); r = stats.pearsonr(x, y)
    return {"tau": float(t.statistic), "pValue": float(t.pvalue), "r": float(r.statistic), "rP": float(r.pvalue), "n": int(len(x))}

alignment = [{"rater": r, "prompt": p, "item": item, "experts": corr(series[(r, p, item)], hmean[item]),
              "outcome": corr(per_unit(series[(r, p, item)]), y_out)} for (r, p, item) in series]
baselines = [{"item": item, "outcome": corr(per_unit(hmean[item]), y_out)} for item in ITEMS]

def ucentre(x):
    d = np.abs(x[:, None] - x[None, :]); n = len(x)
    A = d - d.sum(0)[None, :] / (n - 2) - d.sum(1)[:, None] / (n - 2) + d.sum() / ((n - 1) * (n - 2))
    np.fill_diagonal(A, 0); return A
def dcor2(x, y):
    x, y = pairs(x, y); n = len(x); A, B = ucentre(x), ucentre(y)
    c = lambda P, Q: (P * Q).sum() / (n * (n - 3))
    den = np.sqrt(c(A, A) * c(B, B))
    return float(c(A, B) / den) if den > 0 else 0.0
def rater_mean(r, item):
    stack = np.vstack([series[(r, p, item)] for p in PROMPTS])
    return np.array([mean_or_nan(col[~np.isnan(col)]) for col in stack.T])
dependence = {item: {"labels": [f"{r} · {item}" for r in RATERS] + [f"experts · {item}"],
                     "values": [[1.0 if a is b else dcor2(a, b) for b in vs] for a in vs]}
              for item in ITEMS for vs in [[rater_mean(r, item) for r in RATERS] + [hmean[item]]]}

robust = []
for (r, p, item), s in series.items():
    x, y = pairs(per_unit(s), y_out)
    ts = stats.theilslopes(y, x, alpha=0.95); sg = stats.siegelslopes(y, x)
    q1, q3 = np.percentile(x, 25), np.percentile(x, 75)
    top, bot = y[x >= q3], y[x <= q1]
    row = {"rater": r, "prompt": p, "item": item, "theilSen": [float(ts.slope), float(ts.intercept), float(ts.low_slope), float(ts.high_slope)],
           "siegel": [float(sg.slope), float(sg.intercept)], "quartile": None}
    if q3 > q1 and len(top) >= 2 and len(bot) >= 2:
        t = stats.ttest_ind(top, bot, equal_var=False)
        se = np.sqrt(top.var(ddof=1) / len(top) + bot.var(ddof=1) / len(bot)); df = t.df
        diff = top.mean() - bot.mean(); h = stats.t.ppf(0.975, df) * se
        row["quartile"] = {"nTop": int(len(top)), "nBottom": int(len(bot)), "difference": float(diff), "low95": float(diff - h), "high95": float(diff + h), "pValue": float(t.pvalue)}
    robust.append(row)

def anova(y, names):
    """EMS estimates of a fully crossed random design from effect projections."""
    k = y.ndim; n = y.shape; out = {}
    subsets = [s for m in range(1, k + 1) for s in itertools.combinations(range(k), m)]
    means = {s: y.mean(axis=tuple(f for f in range(k) if f not in s), keepdims=True) for m in range(k + 1) for s in itertools.combinations(range(k), m)}
    ms = {}
    for s in subsets:
        eff = sum((-1) ** (len(s) - len(b)) * means[b] for m in range(len(s) + 1) for b in itertools.combinations(s, m))
        ss = float((np.broadcast_to(eff, y.shape) ** 2).sum()); df = np.prod([n[f] - 1 for f in s])
        ms[s] = ss / df
    est = {}
    for s in sorted(subsets, key=len, reverse=True):
        rest = ms[s] - sum(np.prod([n[f] for f in range(k) if f not in b]) * est[b] for b in est if set(s) < set(b))
        est[s] = rest / np.prod([n[f] for f in range(k) if f not in s])
    pos = sum(max(0, v) for v in est.values())
    return {":".join(names[f] for f in s): {"anovaEstimate": float(est[s]), "anovaShare": max(0, est[s]) / pos} for s in subsets}

items = list(ITEMS); sc = lambda item, v: (v - ITEMS[item][0]) / (ITEMS[item][1] - ITEMS[item][0])
complete = [k for k in range(len(O)) if all(not np.isnan(series[(r, p, i)][k]) for r in RATERS for p in PROMPTS for i in items)]
cube = lambda f: np.array([[[[f(k, i, r, p) for p in PROMPTS] for r in RATERS] for i in items] for k in complete])
d = lambda k, i, r, p: sc(i, series[(r, p, i)][k]) - sc(i, hmean[i][k])
names = ["observation", "item", "rater", "prompt"]
decomp = {"keptObservations": [O[k] for k in complete],
          "squaredError": anova(cube(lambda *a: d(*a) ** 2), names),
          "signedError": anova(cube(lambda *a: np.sign(d(*a)) * d(*a) ** 2), names),
          "ratings": anova(cube(lambda k, i, r, p: sc(i, series[(r, p, i)][k])), names)}
score = {(o, i, e): s for (o, i, e, s) in experts}
def expert_err(k, i, e, signed):
    others = np.mean([score[(O[k], i, x)] for x in EXPERTS if x != e]); dd = sc(i, score[(O[k], i, e)]) - sc(i, others)
    return np.sign(dd) * dd * dd if signed else dd * dd
decomp["expertsSquaredError"] = anova(np.array([[[expert_err(k, i, e, False) for e in EXPERTS] for i in items] for k in range(len(O))]), ["observation", "item", "expert"])

def dstudy(comp, conv, nr, np_):
    sizes = {"rater": nr, "prompt": np_}; obj = {"observation", "item"}
    tau = delta = Delta = 0.0
    for key, c in comp.items():
        f = set(key.split(":")); v = max(0.0, c["anovaEstimate"]); inst = f - obj
        div = np.prod([sizes[x] for x in inst]) if inst else 1
        held = len(f & obj); on = held == 2 if conv == "joint" else held > 0
        if inst:
            Delta += v / div
            if on: delta += v / div
        elif on: tau += v
    return {"convention": conv, "raters": nr, "prompts": np_, "eRho2": tau / (tau + delta), "phi": tau / (tau + Delta)}
grid = [dstudy(decomp["ratings"], c, nr, np_) for c in ("joint", "composite") for nr in (1, 2, 3, 5, 10) for np_ in (1, 2, 3, 5)]

weights = {"ra": 0.5, "rb": 0.3, "rc": 0.2}
ens = []
for p, item in itertools.product(PROMPTS, ITEMS):
    m = np.vstack([series[(r, p, item)] for r in RATERS])
    w = np.array([weights[r] for r in RATERS])[:, None]
    ok = ~np.isnan(m)
    weighted = np.where(ok.any(0), np.nansum(np.where(ok, m, 0) * w, 0) / np.where(ok, w, 0).sum(0), np.nan)
    unan = np.where((m == m[0]).all(0), m[0], np.nan)
    ens.append({"kind": "expertise-weighted", "prompt": p, "item": item, "experts": corr(weighted, hmean[item])})
    ens.append({"kind": "unanimous-vote", "prompt": p, "item": item, "scored": int((~np.isnan(unan)).sum()), "experts": corr(unan, hmean[item])})

json.dump({"generator": f"numpy {np.__version__}, scipy {__import__('scipy').__version__}; gen_validity.py",
           "alignment": alignment, "baselines": baselines, "dependence": dependence, "robustness": robust,
           "decomposition": decomp, "dStudy": grid, "ensembles": ens},
          open(os.path.join(here, "reference.json"), "w"), indent=1, default=float)
