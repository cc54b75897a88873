"""Reference values for the agreement statistics (run offline: `python3 gen_agreement.py`, writes
agreement.json beside this script).

sklearn, statsmodels, pingouin and krippendorff are not installed here, so each statistic is
reimplemented below with numpy/scipy from its published formula (Cohen 1960/1968 as in
sklearn.metrics.cohen_kappa_score; Fleiss 1971; Krippendorff 2011 coincidence matrices;
Shrout & Fleiss 1979 with the psych/pingouin interval formulas; Cronbach 1951 with Feldt's
interval). Published textbook values for the classic data sets are listed in `published` with
their sources; the tests check both.
"""
import json
import os

import numpy as np
from scipy import stats

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261129)


def cohen(a, b, weights="none", labels=None):
    a = np.asarray(a)
    b = np.asarray(b)
    labels = np.unique(np.concatenate([a, b])) if labels is None else np.asarray(labels)
    L = len(labels)
    pos = {v: i for i, v in enumerate(labels.tolist())}
    cm = np.zeros((L, L))
    for x, y in zip(a.tolist(), b.tolist()):
        if x in pos and y in pos:
            cm[pos[x], pos[y]] += 1
    expected = np.outer(cm.sum(1), cm.sum(0)) / cm.sum()
    idx = np.arange(L)
    if weights == "none":
        w = 1 - np.eye(L)
    elif weights == "linear":
        w = np.abs(idx[:, None] - idx[None, :])
    else:
        w = (idx[:, None] - idx[None, :]) ** 2
    return float(1 - (w * cm).sum() / (w * expected).sum())


def fleiss(table, method="fleiss"):
    t = np.asarray(table, float)
    N, K = t.shape
    m = t.sum(1)[0]
    p = t.sum(0) / (N * m)
    P = ((t**2).sum(1) - m) / (m * (m - 1))
    pe = (p**2).sum() if method == "fleiss" else 1 / K
    return float((P.mean() - pe) / (1 - pe))


def kripp(data, level, domain=None):
    # data: raters x units, None for missing.
    units = list(zip(*data))
    vals = [v for u in units for v in u if v is not None]
    domain = sorted(set(vals)) if domain is None else domain
    V = len(domain)
    pos = {v: i for i, v in enumerate(domain)}
    o = np.zeros((V, V))
    for u in units:
        present = [pos[v] for v in u if v is not None]
        m = len(present)
        if m < 2:
            continue
        # Sum over ordered pairs of distinct coders, each weighted 1/(m-1).
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[present[i], present[j]] += 1 / (m - 1)
    nc = o.sum(1)
    n = nc.sum()
    d = np.zeros((V, V))
    for c in range(V):
        for k in range(V):
            if level == "nominal":
                d[c, k] = float(c != k)
            elif level == "interval":
                d[c, k] = (domain[c] - domain[k]) ** 2
            elif level == "ratio":
                s = domain[c] + domain[k]
                d[c, k] = 0.0 if s == 0 else ((domain[c] - domain[k]) / s) ** 2
            else:
                lo, hi = min(c, k), max(c, k)
                d[c, k] = (nc[lo:hi + 1].sum() - (nc[c] + nc[k]) / 2) ** 2
    do = (o * d).sum() / n
    de = (np.outer(nc, nc) * d).sum() / (n * (n - 1))
    return float(1 - do / de)


def icc_all(x, level=0.95):
    x = np.asarray(x, float)
    n, k = x.shape
    gm = x.mean()
    ssb = k * ((x.mean(1) - gm) ** 2).sum()
    ssj = n * ((x.mean(0) - gm) ** 2).sum()
    sst = ((x - gm) ** 2).sum()
    sse = sst - ssb - ssj
    msb, msj = ssb / (n - 1), ssj / (k - 1)
    msw = (sst - ssb) / (n * (k - 1))
    mse = sse / ((n - 1) * (k - 1))
    a = 1 - level
    icc1 = (msb - msw) / (msb + (k - 1) * msw)
    icc2 = (msb - mse) / (msb + (k - 1) * mse + k * (msj - mse) / n)
    icc3 = (msb - mse) / (msb + (k - 1) * mse)
    f1, f3 = msb / msw, msb / mse
    d1, dw, de = n - 1, n * (k - 1), (n - 1) * (k - 1)
    F = stats.f
    f1l = f1 / F.ppf(1 - a / 2, d1, dw)
    f1u = f1 * F.ppf(1 - a / 2, dw, d1)
    f3l = f3 / F.ppf(1 - a / 2, d1, de)
    f3u = f3 * F.ppf(1 - a / 2, de, d1)
    fj = msj / mse
    vn = de * (k * icc2 * fj + n * (1 + (k - 1) * icc2) - k * icc2) ** 2
    vd = d1 * k**2 * icc2**2 * fj**2 + (n * (1 + (k - 1) * icc2) - k * icc2) ** 2
    v = vn / vd
    fs = F.ppf(1 - a / 2, d1, v)
    fss = F.ppf(1 - a / 2, v, d1)
    l2 = n * (msb - fs * mse) / (fs * (k * msj + (k * n - k - n) * mse) + n * msb)
    u2 = n * (fss * msb - mse) / (k * msj + (k * n - k - n) * mse + n * fss * msb)
    sb = lambda r: r * k / (1 + r * (k - 1))  # noqa: E731
    p1, p3 = F.sf(f1, d1, dw), F.sf(f3, d1, de)
    rows = {
        "ICC1": [icc1, f1, d1, dw, p1, (f1l - 1) / (f1l + k - 1), (f1u - 1) / (f1u + k - 1)],
        "ICC2": [icc2, f3, d1, de, p3, l2, u2],
        "ICC3": [icc3, f3, d1, de, p3, (f3l - 1) / (f3l + k - 1), (f3u - 1) / (f3u + k - 1)],
        "ICC1k": [(msb - msw) / msb, f1, d1, dw, p1, 1 - 1 / f1l, 1 - 1 / f1u],
        "ICC2k": [(msb - mse) / (msb + (msj - mse) / n), f3, d1, de, p3, sb(l2), sb(u2)],
        "ICC3k": [(msb - mse) / msb, f3, d1, de, p3, 1 - 1 / f3l, 1 - 1 / f3u],
    }
    keys = ["icc", "f", "df1", "df2", "pValue", "ciLow", "ciHigh"]
    return {t: dict(zip(keys, map(float, r))) for t, r in rows.items()}


def cronbach(x, level=0.95):
    x = np.asarray(x, float)
    n, k = x.shape
    alpha = k / (k - 1) * (1 - x.var(0, ddof=1).sum() / x.sum(1).var(ddof=1))
    a = 1 - level
    d1, d2 = n - 1, (n - 1) * (k - 1)
    return {"alpha": float(alpha), "ciLow": float(1 - (1 - alpha) * stats.f.isf(a / 2, d1, d2)),
            "ciHigh": float(1 - (1 - alpha) * stats.f.isf(1 - a / 2, d1, d2))}


# --- Classic data sets (published values in `published`) ---
anxiety = np.array([3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3, 3, 6, 4, 6, 2, 4, 2, 4, 3, 3,
                    2, 3, 3, 3, 2, 2, 1, 3, 3, 4, 2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]).reshape(20, 3, order="F")
diagnoses = [[4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
             [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
             [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
             [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
             [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
             [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5]]
wikipedia_fleiss = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
                    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
N_ = None
kripp_canonical = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N_, N_, N_],
                   [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N_, 3],
                   [N_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N_],
                   [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N_]]
kripp_wikipedia = [[N_, N_, N_, N_, N_, 3, 4, 1, 2, 1, 1, 3, 3, N_, 3],
                   [1, N_, 2, 1, 3, 3, 4, 3, N_, N_, N_, N_, N_, N_, N_],
                   [N_, N_, 2, 1, 3, 4, 4, N_, 2, 1, 1, 3, 3, N_, 4]]
shrout_fleiss = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
wine = [[1, 2, 0, 1], [1, 3, 3, 2], [3, 8, 1, 4], [6, 4, 3, 3], [6, 5, 5, 6], [7, 5, 6, 2], [8, 7, 7, 9], [9, 9, 9, 8]]

# --- Synthetic cases ---
ord_a = rng.integers(1, 6, 80)
ord_b = np.clip(ord_a + rng.integers(-1, 2, 80), 1, 5)
str_a = rng.choice(["good", "bad", "fair"], 50)
str_b = np.where(rng.random(50) < 0.7, str_a, rng.choice(["good", "bad", "fair"], 50))
ratings = np.clip(rng.integers(1, 5, (40, 1)) + rng.integers(-1, 2, (40, 7)), 1, 5)
kr = np.clip(rng.integers(1, 8, (1, 30)) + rng.integers(-1, 2, (5, 30)), 1, 7).astype(object)
kr[rng.random((5, 30)) < 0.25] = None
icc_mat = rng.normal(0, 1, (15, 1)) + rng.normal(0, 0.7, (15, 5)) + np.array([0, 0.3, -0.2, 0.5, 0.1])
cron_mat = rng.normal(0, 1, (25, 1)) + rng.normal(0, 1.2, (25, 6))

out = {
    "data": {
        "anxiety": anxiety.tolist(), "diagnoses": diagnoses, "wikipedia_fleiss": wikipedia_fleiss,
        "kripp_canonical": kripp_canonical, "kripp_wikipedia": kripp_wikipedia,
        "shrout_fleiss": shrout_fleiss, "wine": wine,
        "ord_a": ord_a.tolist(), "ord_b": ord_b.tolist(), "str_a": str_a.tolist(), "str_b": str_b.tolist(),
        "ratings": ratings.tolist(), "kripp_synthetic": kr.tolist(),
        "icc_matrix": icc_mat.tolist(), "cronbach_matrix": cron_mat.tolist(),
    },
    "computed": {
        "cohen": {
            "anxiety_2_3": {w: cohen(anxiety[:, 1], anxiety[:, 2], w) for w in ["none", "linear", "quadratic"]},
            "ordinal": {w: cohen(ord_a, ord_b, w) for w in ["none", "linear", "quadratic"]},
            "ordinal_labels_1_to_4": cohen(ord_a, ord_b, "linear", labels=[1, 2, 3, 4]),
            "strings": cohen(str_a, str_b),
            "strings_ordered_quadratic": cohen(str_a, str_b, "quadratic", labels=["bad", "fair", "good"]),
        },
        "fleiss": {
            "diagnoses": fleiss([[row.count(c) for c in range(1, 6)] for row in diagnoses]),
            "wikipedia": fleiss(wikipedia_fleiss),
            "wikipedia_randolph": fleiss(wikipedia_fleiss, "randolph"),
            "ratings": fleiss([[list(r).count(c) for c in range(1, 6)] for r in ratings.tolist()]),
        },
        "krippendorff": {
            "canonical": {lv: kripp(kripp_canonical, lv) for lv in ["nominal", "ordinal", "interval", "ratio"]},
            "wikipedia": {lv: kripp(kripp_wikipedia, lv) for lv in ["nominal", "interval"]},
            "synthetic": {lv: kripp(kr.tolist(), lv) for lv in ["nominal", "ordinal", "interval", "ratio"]},
        },
        "icc": {"shrout_fleiss": icc_all(shrout_fleiss), "wine": icc_all(wine), "synthetic": icc_all(icc_mat),
                "synthetic_90": icc_all(icc_mat, 0.9)},
        "cronbach": {"synthetic": cronbach(cron_mat), "synthetic_90": cronbach(cron_mat, 0.9), "wine": cronbach(wine)},
    },
    "published": {
        "cohen_anxiety_2_3": {"source": "R irr::kappa2(anxiety[,2:3]) via statsmodels test_inter_rater.py", "none": -0.006289308, "linear": 0.1459075, "quadratic": 0.2520325, "decimals": 7},
        "fleiss_diagnoses": {"source": "Fleiss (1971) psychiatric diagnoses; R irr::kappam.fleiss = 0.4302445 (statsmodels test)", "kappa": 0.4302445, "decimals": 7},
        "fleiss_wikipedia": {"source": "Wikipedia Fleiss' kappa worked example (statsmodels test)", "kappa": 0.210, "decimals": 3},
        "kripp_canonical": {"source": "Krippendorff (2011) 'Computing Krippendorff's Alpha-Reliability' reliability data (4 observers x 12 units); krippendorff package tests", "nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797, "decimals": 3},
        "kripp_wikipedia": {"source": "Wikipedia computational example; krippendorff package tests", "nominal": 0.691358, "interval": 0.810845, "decimals": 6},
        "shrout_fleiss": {"source": "Shrout & Fleiss (1979) Table 2 data (6 targets x 4 judges), Table 4 estimates", "ICC1": 0.17, "ICC2": 0.29, "ICC3": 0.71, "ICC1k": 0.44, "ICC2k": 0.62, "ICC3k": 0.91, "decimals": 2},
        "wine": {"source": "pingouin intraclass_corr docstring, .round(3) (pg.read_dataset('icc'), 8 wines x 4 judges)",
                 "ICC1": {"icc": 0.728, "f": 11.680, "df1": 7, "df2": 24, "ci": [0.43, 0.93]},
                 "ICC2": {"icc": 0.728, "f": 11.787, "df1": 7, "df2": 21, "ci": [0.43, 0.93]},
                 "ICC3": {"icc": 0.729, "f": 11.787, "df1": 7, "df2": 21, "ci": [0.43, 0.93]},
                 "ICC1k": {"icc": 0.914, "f": 11.680, "df1": 7, "df2": 24, "ci": [0.75, 0.98]},
                 "ICC2k": {"icc": 0.914, "f": 11.787, "df1": 7, "df2": 21, "ci": [0.75, 0.98]},
                 "ICC3k": {"icc": 0.915, "f": 11.787, "df1": 7, "df2": 21, "ci": [0.75, 0.98]}},
    },
}
json.dump(out, open(os.path.join(here, "agreement.json"), "w"), indent=1)
