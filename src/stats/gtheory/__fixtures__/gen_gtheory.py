"""Independent references for varianceComponents on designs the conformance file does not cover
(run offline: `python3 gen_gtheory.py`, writes gtheory_reference.json beside this script).

Nothing here follows the TypeScript algorithm: each effect's sum of squares is the quadratic form
y' P y with P built from Kronecker products of centring (I - J/n), averaging (J/n) and identity
(nested facets) matrices; df = trace(P); the expected-mean-square coefficients come from
E[y' P y] = sum_b sigma2_b trace(P Z_b Z_b') with Z_b the cell-indicator matrix of effect b; and
REML maximises the full restricted likelihood -1/2 [log|V| + log|X'V^-1 X| + y'Py] with
V = sum_b sigma2_b Z_b Z_b' over sigma2 >= 0 (scipy L-BFGS-B, analytic gradient, several starts).
"""
import itertools
import json
import os

import numpy as np
from scipy.optimize import minimize

here = os.path.dirname(os.path.abspath(__file__))


def effects(facets, parent):
    out = []
    for r in range(1, len(facets) + 1):
        for combo in itertools.combinations(facets, r):
            s = set(combo)
            if all(parent.get(f) in s for f in s if f in parent):
                out.append(combo)
    return out


def projector(eff, facets, sizes, parent):
    # Cells ordered with the first facet slowest; a nested facet's levels are within its parent.
    s = set(eff)
    nesting = {parent[f] for f in s if f in parent}
    mats = []
    for f in facets:
        n = sizes[f]
        I, J = np.eye(n), np.ones((n, n)) / n
        if f not in s:
            mats.append(J)
        elif f in nesting:
            mats.append(I)  # present only because something in the effect is nested in it
        else:
            mats.append(I - J)
    P = mats[0]
    for m in mats[1:]:
        P = np.kron(P, m)
    return P


def indicator(eff, facets, sizes):
    grids = np.array(list(itertools.product(*[range(sizes[f]) for f in facets])))
    cols = [facets.index(f) for f in eff]
    keys = [tuple(row) for row in grids[:, cols]]
    uniq = {k: i for i, k in enumerate(sorted(set(keys)))}
    Z = np.zeros((len(keys), len(uniq)))
    for r, k in enumerate(keys):
        Z[r, uniq[k]] = 1
    return Z


def analyse(facets, sizes, parent, y):
    effs = effects(facets, parent)
    ZZ = [indicator(e, facets, sizes) for e in effs]
    ZZ = [Z @ Z.T for Z in ZZ]
    table = []
    A = np.zeros((len(effs), len(effs)))
    for a, e in enumerate(effs):
        P = projector(e, facets, sizes, parent)
        df = np.trace(P)
        ss = y @ P @ y
        table.append({"facets": list(e), "df": float(round(df)), "SS": float(ss), "MS": float(ss / df)})
        for b in range(len(effs)):
            A[a, b] = np.trace(P @ ZZ[b]) / df
    ms = np.array([t["MS"] for t in table])
    sigma = np.linalg.solve(A, ms)
    for t, s in zip(table, sigma):
        t["var_comp_anova"] = float(s)
    return effs, table, ZZ, sigma


def reml(y, ZZ, start):
    N = len(y)
    X = np.ones((N, 1))

    def negll(s):
        V = sum(si * Z for si, Z in zip(s, ZZ))
        Vi = np.linalg.inv(V)
        XVX = X.T @ Vi @ X
        P = Vi - Vi @ X @ np.linalg.inv(XVX) @ X.T @ Vi
        ll = -0.5 * (np.linalg.slogdet(V)[1] + np.linalg.slogdet(XVX)[1] + y @ P @ y)
        Py = P @ y
        grad = np.array([-0.5 * np.sum(P * Z) + 0.5 * Py @ Z @ Py for Z in ZZ])
        return -ll, -grad

    best = None
    for s0 in start:
        bounds = [(0, None)] * (len(ZZ) - 1) + [(1e-8, None)]
        res = minimize(negll, s0, jac=True, method="L-BFGS-B", bounds=bounds,
                       options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 20000, "maxcor": 30})
        if best is None or res.fun < best.fun:
            best = res
    return best.x, -best.fun


def dstudy(effs, sigma, obj, nprime, fixed=()):
    tau = delta = Delta = 0.0
    for e, s in zip(effs, sigma):
        s = max(s, 0.0)
        others = [f for f in e if f != obj]
        div = float(np.prod([nprime[f] for f in others])) if others else 1.0
        random_ = any(f not in fixed for f in others)
        if obj in e:
            if random_:
                delta += s / div
                Delta += s / div
            else:
                tau += s / div
        elif random_:
            Delta += s / div
    return {"tau": tau, "delta": delta, "Delta": Delta, "E_rho2": tau / (tau + delta), "Phi": tau / (tau + Delta)}


rng = np.random.default_rng(20261130)
cases = []

# A: five crossed facets, 3 x 2 x 3 x 2 x 2 = 72 cells.
facetsA = ["a", "b", "c", "d", "e"]
sizesA = {"a": 3, "b": 2, "c": 3, "d": 2, "e": 2}
# B: p x i x (r:t), 4 x 2 x 3 tasks x 2 raters per task = 48 cells.
facetsB = ["p", "i", "t", "r"]
sizesB = {"p": 4, "i": 2, "t": 3, "r": 2}
for name, facets, sizes, parent, dsizes in [
    ("crossed_5_facets", facetsA, sizesA, {}, [{"b": 2, "c": 3, "d": 2, "e": 2}, {"b": 5, "c": 1, "d": 4, "e": 3}]),
    ("p_x_i_x_(r:t)", facetsB, sizesB, {"r": "t"}, [{"i": 2, "t": 3, "r": 2}, {"i": 4, "t": 2, "r": 5}]),
]:
    shape = [sizes[f] for f in facets]
    N = int(np.prod(shape))
    # A person-like main effect, a second facet effect and noise: leaves some ANOVA estimates negative.
    grid = np.array(list(itertools.product(*[range(n) for n in shape])))
    y = (rng.normal(0, 1.0, shape[0])[grid[:, 0]] + rng.normal(0, 0.5, shape[1])[grid[:, 1]]
         + rng.normal(0, 1.0, N))
    y = np.round(y * 4) / 4 + 3
    effs, table, ZZ, sigma = analyse(facets, sizes, parent, y)
    starts = [np.maximum(sigma, 0.05), np.full(len(effs), 0.5), np.full(len(effs), 0.1)]
    rs, ll = reml(y, ZZ, starts)
    rows = [dict(zip(facets, map(int, g)), score=float(v)) for g, v in zip(grid, y)]
    obj = facets[0]
    cases.append({
        "name": name, "facets": facets, "nesting": {k: v for k, v in parent.items()}, "rows": rows,
        "anova": table, "reml": [float(v) for v in rs], "reml_loglik": float(ll),
        "negative_anova": [list(e) for e, s in zip(effs, sigma) if s < 0],
        "d_studies": [{"sizes": d, "result": dstudy(effs, sigma, obj, d)} for d in dsizes]
                     + [{"sizes": dsizes[0], "fixed": [facets[1]], "result": dstudy(effs, sigma, obj, dsizes[0], fixed=(facets[1],))}],
    })

json.dump({"cases": cases}, open(os.path.join(here, "gtheory_reference.json"), "w"), indent=1)
for c in cases:
    print(c["name"], "negative:", c["negative_anova"], "reml loglik", c["reml_loglik"])
