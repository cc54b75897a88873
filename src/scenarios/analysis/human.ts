import { cronbachAlpha, icc } from '../../stats/agreement/index.js';
import { kendallTauB } from '../../stats/correlation/index.js';
import { weightedScore } from '../judge/score.js';
import { meanInterval } from '../../stats/inference/mean-interval.js';
import { SCENARIO_INTERVAL, type Estimate } from './estimate.js';
import { finite, mean, type ScenarioRunData } from './stored.js';

/** Scorer name of one expert's imported scores. */
export const HUMAN_PREFIX = 'human:';

/** Judge (the panel, or one judge) against the experts on one dimension. */
export interface AgreementRow {
  /** `panel`, or a judge alias. */
  judge: string;
  /** A rubric dimension; null for the weighted score. */
  dimension: string | null;
  /** Dialogues scored by the judge and at least one expert. */
  n: number;
  /** Kendall tau-b of judge and expert mean, with scipy's two-sided p-value; null when undefined (n < 2, or no variation). */
  kendallTauB: number | null;
  kendallP: number | null;
  /** ICC(2,1): two-way random effects, absolute agreement, single rater, over the columns [judge, expert mean]. */
  icc: number | null;
  iccLow: number | null;
  iccHigh: number | null;
  /** Judge minus expert mean, on the [0, 1] scale, with its bootstrap interval. */
  meanDeviation: Estimate;
}

/** Cronbach's alpha with the experts as items, over the dialogues every expert scored. */
export interface ReliabilityRow {
  dimension: string | null;
  alpha: number | null;
  low: number | null;
  high: number | null;
  /** Dialogues scored by every expert, and experts. */
  n: number;
  k: number;
  note?: string;
}

export interface HumanAnalysis {
  raters: Array<{ rater: string; outputs: number }>;
  agreement: AgreementRow[];
  reliability: ReliabilityRow[];
}

/** Per dialogue: the weighted score and each dimension score, all on [0, 1]. */
export type Profile = Map<string | null, number>;

function profile(score: number | null, dimensions: Record<string, number> | undefined): Profile | undefined {
  if (score === null) return undefined;
  return new Map<string | null, number>([[null, score], ...Object.entries(dimensions ?? {})]);
}

/** The imported experts' scores: per rater and dialogue, and the experts' mean per dialogue; null when none. */
export function expertProfiles(data: ScenarioRunData): {
  byRater: Map<string, Map<string, Profile>>; raters: string[]; keys: Array<string | null>; expert: Map<string, Profile>; outputs: Set<string>;
} | null {
  const ev = data.evaluation;
  if (!ev) return null;
  const humans = data.scores.filter(s => s.scorer.name.startsWith(HUMAN_PREFIX) && s.value !== null);
  if (humans.length === 0) return null;
  const byRater = new Map<string, Map<string, Profile>>();
  for (const s of humans) {
    const rater = s.scorer.name.slice(HUMAN_PREFIX.length);
    const p = profile(s.value, s.details?.dimensions as Record<string, number> | undefined);
    if (p) byRater.set(rater, (byRater.get(rater) ?? new Map()).set(s.trialId, p));
  }
  const raters = [...byRater.keys()].sort();
  const keys: Array<string | null> = [null, ...new Set(ev.scored.map(f => f.dimension))];
  const expert = new Map<string, Profile>();
  const outputs = new Set(humans.map(s => s.trialId));
  for (const trialId of outputs) {
    const own = raters.map(r => byRater.get(r)!.get(trialId)).filter((p): p is Profile => p !== undefined);
    expert.set(trialId, new Map(keys.filter(k => own.some(p => p.has(k))).map(k => [k, mean(own.filter(p => p.has(k)).map(p => p.get(k)!))])));
  }
  return { byRater, raters, keys, expert, outputs };
}

/**
 * Judge-human agreement and expert-panel reliability, from the imported `human:<rater>` scores.
 * The expert reference of a dialogue is the mean of its experts; every value is on [0, 1], as
 * the judges' dimension scores are.
 */
export function analyseHumans(data: ScenarioRunData): HumanAnalysis | null {
  const ev = data.evaluation;
  if (!ev) return null;
  const experts = expertProfiles(data);
  if (!experts) return null;
  const { byRater, raters, keys, expert, outputs } = experts;

  const judgeProfiles = new Map<string, Map<string, Profile>>([['panel', new Map()], ...ev.judges.map(j => [j, new Map<string, Profile>()] as const)]);
  for (const s of data.scores) {
    if (s.scorer.name !== `judge:${ev.name}`) continue;
    const p = profile(s.value, s.details?.dimensions as Record<string, number> | undefined);
    if (p) judgeProfiles.get('panel')!.set(s.trialId, p);
    const judges = (s.details?.judges ?? {}) as Record<string, { fields?: Record<string, number> }>;
    for (const [alias, j] of Object.entries(judges)) {
      const w = j.fields ? weightedScore(new Map(Object.entries(j.fields)), ev.scored) : undefined;
      if (w) judgeProfiles.get(alias)?.set(s.trialId, profile(w.score, w.dimensions)!);
    }
  }

  const agreement: AgreementRow[] = [];
  for (const [judge, profiles] of judgeProfiles) {
    for (const key of keys) {
      const pairs: Array<[number, number]> = [];
      for (const [trialId, h] of expert) {
        const j = profiles.get(trialId)?.get(key);
        const e = h.get(key);
        if (j !== undefined && e !== undefined) pairs.push([j, e]);
      }
      agreement.push(agreementRow(judge, key, pairs));
    }
  }
  return {
    raters: raters.map(rater => ({ rater, outputs: byRater.get(rater)!.size })),
    agreement,
    reliability: keys.map(key => reliabilityRow(key, raters.map(r => byRater.get(r)!), outputs)),
  };
}

export function agreementRow(judge: string, dimension: string | null, pairs: Array<[number, number]>): AgreementRow {
  const js = pairs.map(p => p[0]);
  const hs = pairs.map(p => p[1]);
  const row: AgreementRow = {
    judge, dimension, n: pairs.length, kendallTauB: null, kendallP: null, icc: null, iccLow: null, iccHigh: null,
    meanDeviation: meanInterval(pairs.map(([j, h]) => j - h), SCENARIO_INTERVAL),
  };
  if (pairs.length < 2) return row;
  const tau = kendallTauB(js, hs);
  row.kendallTauB = finite(tau.tau);
  row.kendallP = finite(tau.pValue);
  const form = icc(pairs).byType.ICC2;
  row.icc = finite(form.icc);
  row.iccLow = finite(form.ciLow);
  row.iccHigh = finite(form.ciHigh);
  return row;
}

function reliabilityRow(dimension: string | null, raters: Array<Map<string, Profile>>, outputs: Set<string>): ReliabilityRow {
  const k = raters.length;
  const complete = [...outputs].filter(id => raters.every(r => r.get(id)?.has(dimension)));
  const row: ReliabilityRow = { dimension, alpha: null, low: null, high: null, n: complete.length, k };
  if (k < 2) return { ...row, note: 'needs at least two experts' };
  if (complete.length < 2) return { ...row, note: 'needs at least two dialogues scored by every expert' };
  const result = cronbachAlpha(complete.map(id => raters.map(r => r.get(id)!.get(dimension)!)));
  const alpha = finite(result.alpha);
  return { ...row, alpha, low: alpha === null ? null : finite(result.ciLow), high: alpha === null ? null : finite(result.ciHigh), ...(alpha === null ? { note: "the experts' totals do not vary" } : {}) };
}
