import type { Judgment } from '../../core/judgment.js';
import type { Score } from '../../core/scorer.js';
import { meanInterval } from '../../stats/inference/mean-interval.js';
import { unscoredReasons, type UnscoredReason } from '../judge/unscored.js';
import { SCENARIO_INTERVAL, type Estimate } from './estimate.js';
import type { ModelFamily } from '../../providers/family.js';
import { finite, mean, sampleVariance, type ScenarioRunData } from './stored.js';

/** How one judge of the panel behaves, from its stored judgments only. */
export interface JudgeAnalysis {
  judge: string;
  /** `provider:model` (several, comma-separated, when a sweep changed the judge). */
  spec: string;
  family: string;
  familySource: ModelFamily['source'];
  /** Conforming judgments (all repeats) and judgments that never fit the format. */
  judgments: number;
  unscored: number;
  /** Why its judgments were unscored (an answer that never fit the format), most frequent first. */
  unscoredReasons: UnscoredReason[];
  /** The judge's score per dialogue (its repeats combined as the panel combines them), over dialogues. */
  meanScore: Estimate;
  /**
   * Variance of the weighted score over the repeats of the same dialogue (n - 1 denominator),
   * averaged over the dialogues with at least two conforming repeats (`outputs`); per dimension too.
   */
  repeatVariance: { outputs: number; mean: number | null; max: number | null; dimensions: Record<string, number | null> };
  selfPreference: SelfPreference;
}

/** The judge against the panel on one set of dialogues. */
export interface PreferenceSide {
  outputs: number;
  judgeMean: number | null;
  panelMean: number | null;
  /** Judge minus panel, per dialogue (the panel includes this judge). */
  delta: Estimate;
  /** Judge minus the mean of the other judges, per dialogue; null for a one-judge panel. */
  deltaOthers: Estimate | null;
}

/**
 * Self-preference: the judge on dialogues whose model under test is of its own family (`own`)
 * against the same judge on the rest (`other`). `excess` = own.delta - other.delta separates a
 * preference for its family from general leniency; null when a side is empty.
 */
export interface SelfPreference {
  family: string;
  own: PreferenceSide;
  other: PreferenceSide;
  excess: number | null;
  excessOthers: number | null;
}

export function analyseJudges(data: ScenarioRunData): JudgeAnalysis[] {
  const ev = data.evaluation;
  if (!ev) return [];
  const trials = new Map(data.trials.map(t => [t.id, t]));
  const panel = new Map<string, Score>();
  for (const s of data.scores) if (s.scorer.name === `judge:${ev.name}`) panel.set(s.trialId, s);
  return ev.judges.map(judge => {
    const own = data.judgments.filter(j => j.rater.alias === judge);
    const valid = own.filter(j => j.value !== null);
    const byDialogue = new Map<string, Judgment[]>();
    for (const j of valid) byDialogue.set(j.targetTrialId, [...(byDialogue.get(j.targetTrialId) ?? []), j]);
    const repeated = [...byDialogue.values()].filter(list => list.length >= 2);
    const variances = repeated.map(list => sampleVariance(list.map(s => s.value!)));
    const dims = [...new Set(valid.flatMap(s => Object.keys(dimensionsOf(s))))];
    const dimVariance = Object.fromEntries(dims.map(d => {
      const vs = repeated.map(list => list.map(s => dimensionsOf(s)[d]).filter((v): v is number => v !== undefined)).filter(v => v.length >= 2).map(sampleVariance);
      return [d, vs.length ? mean(vs) : null];
    }));

    const specs = new Set<string>();
    let family: ModelFamily | undefined;
    const sides = { own: [] as Row[], other: [] as Row[] };
    const judgeScores: number[] = [];
    for (const [trialId, p] of panel) {
      const trial = trials.get(trialId);
      const judges = p.details?.judges as Record<string, { score?: number }> | undefined;
      const mine = judges?.[judge]?.score;
      if (!trial || p.value === null || mine === undefined) continue;
      const me = data.modelOf(trial, judge);
      specs.add(me.spec);
      family ??= me.family;
      judgeScores.push(mine);
      const others = Object.entries(judges!).filter(([alias, j]) => alias !== judge && j.score !== undefined).map(([, j]) => j.score!);
      const target = data.modelOf(trial, data.targetAlias).family.family;
      sides[target === me.family.family ? 'own' : 'other'].push({ judge: mine, panel: p.value, others: others.length ? mean(others) : null });
    }
    if (!family) {
      const first = data.trials[0];
      family = first ? data.modelOf(first, judge).family : { family: judge, source: 'model' };
      if (first) specs.add(data.modelOf(first, judge).spec);
    }
    const ownSide = side(sides.own);
    const otherSide = side(sides.other);
    const diff = (a: Estimate | null, b: Estimate | null) => (a?.mean != null && b?.mean != null ? a.mean - b.mean : null);
    return {
      judge,
      spec: [...specs].join(', '),
      family: family.family,
      familySource: family.source,
      judgments: valid.length,
      unscored: own.length - valid.length,
      unscoredReasons: unscoredReasons(own),
      meanScore: meanInterval(judgeScores, SCENARIO_INTERVAL),
      repeatVariance: {
        outputs: variances.length,
        mean: variances.length ? mean(variances) : null,
        max: variances.length ? Math.max(...variances) : null,
        dimensions: dimVariance,
      },
      selfPreference: {
        family: family.family,
        own: ownSide,
        other: otherSide,
        excess: finite(diff(ownSide.delta, otherSide.delta)),
        excessOthers: finite(diff(ownSide.deltaOthers, otherSide.deltaOthers)),
      },
    };
  });
}

interface Row { judge: number; panel: number; others: number | null }

function side(rows: Row[]): PreferenceSide {
  const withOthers = rows.filter(r => r.others !== null);
  return {
    outputs: rows.length,
    judgeMean: rows.length ? mean(rows.map(r => r.judge)) : null,
    panelMean: rows.length ? mean(rows.map(r => r.panel)) : null,
    delta: meanInterval(rows.map(r => r.judge - r.panel), SCENARIO_INTERVAL),
    deltaOthers: rows.length > 0 && withOthers.length === rows.length ? meanInterval(withOthers.map(r => r.judge - r.others!), SCENARIO_INTERVAL) : null,
  };
}

function dimensionsOf(j: Judgment): Record<string, number> {
  return (j.details?.dimensions ?? {}) as Record<string, number>;
}
