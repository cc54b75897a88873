"""Writes the SYNTHETIC worked-example CSVs for `paideia validity analyze` (docs/validity.md).

Nothing here is real data: 60 made-up teachers (units) with a made-up value-added outcome, two
transcript segments each, three rating items, three experts, three model raters and three prompt
families, two repeats. Ratings are drawn from a latent quality with a bias the models share, so the
example shows what the analyses are for (models agree with each other more than with experts).
Run: python3 generate.py  (numpy default_rng(20261201); rerunning rewrites identical files).
"""
import csv
import numpy as np

rng = np.random.default_rng(20261201)
ITEMS = {"uptake": (1, 3), "questioning": (1, 7), "errors": (1, 3)}
RATERS = ["model-a", "model-b", "model-c"]
PROMPTS = ["base", "cot", "rubric"]
EXPERTS = ["expert-1", "expert-2", "expert-3"]
teachers = [f"t{k:02d}" for k in range(1, 61)]
skill = rng.normal(size=len(teachers))
obs = [(f"{t}-s{s}", i) for i, t in enumerate(teachers) for s in (1, 2)]

def on_scale(v, lo, hi):
    return int(np.clip(np.rint(v), lo, hi))

with open("observations.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["observation", "unit", "words"])
    for o, i in obs: w.writerow([o, teachers[i], int(rng.integers(300, 2400))])
with open("outcomes.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["unit", "outcome", "years", "prior_outcome"])
    for i, t in enumerate(teachers):
        w.writerow([t, round(0.08 * skill[i] + rng.normal(0, 0.1), 4), int(rng.integers(1, 30)), round(0.05 * skill[i] + rng.normal(0, 0.1), 4)])
with open("scales.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["item", "min", "max", "description"])
    for item, (lo, hi) in ITEMS.items(): w.writerow([item, lo, hi, f"synthetic {item} item"])
with open("rater-weights.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(["rater", "weight"])
    for r, wt in zip(RATERS, [0.62, 0.71, 0.55]): w.writerow([r, wt])

rater_bias = dict(zip(RATERS, [0.3, 0.0, -0.2]))
prompt_bias = dict(zip(PROMPTS, [0.2, 0.0, -0.1]))
with open("experts.csv", "w", newline="") as fe, open("ratings.csv", "w", newline="") as fr:
    we = csv.writer(fe); we.writerow(["observation", "item", "expert", "score"])
    wr = csv.writer(fr); wr.writerow(["observation", "item", "rater", "prompt", "repeat", "score"])
    for o, i in obs:
        for item, (lo, hi) in ITEMS.items():
            mid, half = (lo + hi) / 2, (hi - lo) / 2
            quality = 0.5 * skill[i] + rng.normal(0, 0.8)
            surface = rng.normal(0, 0.9)  # what the transcript looks like, which the models all latch on to
            for e in EXPERTS:
                we.writerow([o, item, e, on_scale(mid + half * 0.45 * (quality + rng.normal(0, 0.7)), lo, hi)])
            for r in RATERS:
                for p in PROMPTS:
                    if o == "t07-s2" and r == "model-c" and p == "rubric":
                        continue  # a cell that was never rated: the design is not fully crossed
                    for rep in (1, 2):
                        v = mid + half * 0.45 * (0.35 * quality + 0.8 * surface + rater_bias[r] + prompt_bias[p] + rng.normal(0, 0.5))
                        score = "" if rng.random() < 0.01 else on_scale(v, lo, hi)  # about 1% unscored answers
                        wr.writerow([o, item, r, p, rep, score])
