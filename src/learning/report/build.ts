import { kendallTauB, spearman } from '../../stats/index.js';
import { INJECTIONS, analyseInjections, type Dimension as InjectionDimension, type FamilyEffect, type InjectionFamily, type InjectionPair } from '../inject/index.js';
import type { Judgment } from '../../core/index.js';
import { DIMENSIONS, ORIGINAL, type Dimension } from '../run/plan.js';
import type { DeckMetrics } from '../decks/metrics.js';
import { judgmentDimension, judgmentVariant, type MarkedLearner, type StudyData } from './collect.js';
import { LEARNER_KEYS, RESAMPLES, overUnits, unitMeans, type Figure, type LearnerFigureKey } from './figures.js';
import { cellsOf, summariseOutcomes, type Estimate, type MarkedAnswer, type OutcomeSummary } from '../outcomes/index.js';

/** D3 metrics reported as figures (the numeric ones). */
export const D3_KEYS = ['slides', 'words', 'wordsPerSlide', 'tables', 'images', 'colours', 'exercises', 'overflowSlides', 'visualAids'] as const;
type D3Key = (typeof D3_KEYS)[number];

export interface GeneratorFigures {
  spec: string;
  baseline: boolean;
  pre: Figure; post: Figure; gain: Figure; near: Figure; far: Figure;
  d1: Figure; d2: Figure;
  d3: Record<D3Key, Figure>;
  /** Decks rejected (not HTML, no slides, too large): failed generations, never rendered. */
  failedGenerations: number;
  /** Item-level averages, near/far gap, normalised gain, gains by band and task type, negative gains. */
  outcomes: ReturnType<typeof outcomeDetails>;
}

export interface Correlation {
  n: number;
  spearman: { rho: number | null; pValue: number | null };
  kendall: { tau: number | null; pValue: number | null };
}

export const learnerValue = (l: MarkedLearner, key: LearnerFigureKey): number | null => {
  const s = l.scores;
  if (key === 'gain') return s.posttest !== null && s.pretest !== null ? s.posttest - s.pretest : null;
  return key === 'pre' ? s.pretest : key === 'post' ? s.posttest : s[key];
};

/** Learner trials of the primary condition: the deck as generated, the first puzzle-context and frames setting. */
export function primary(data: StudyData, variant = ORIGINAL): MarkedLearner[] {
  const ctx = data.design.puzzleContext[0];
  const frames = data.design.frames[0];
  return data.learners.filter(l => l.record.deckVariant === variant && l.record.puzzleContext === ctx && l.record.frames === frames);
}

const PHASE_OF = { pretest: 'pre', posttest: 'post', near: 'near', far: 'far' } as const;

/** The learning-outcome summary (outcomes' summariseOutcomes) of learner trials, pooled as one group. */
export function outcomeSummary(data: StudyData, rows: ReadonlyArray<MarkedLearner>): OutcomeSummary | undefined {
  const marks: MarkedAnswer[] = rows.flatMap(r => r.marks.map(m => ({ unit: r.record.unit, deck: r.generator, learner: r.record.learner.alias, phase: PHASE_OF[m.phase], item: m.index, mark: m.mark })));
  return summariseOutcomes(cellsOf(marks), { units: data.units, seed: data.design.seed, resamples: RESAMPLES, groupOf: () => 'all', normalisedGain: true })[0];
}

const asFigure = (e: Estimate | undefined): Figure => {
  const num = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? null : x);
  return { mean: num(e?.value), n: e?.n ?? 0, low: num(e?.low), high: num(e?.high) };
};

/** Pre, post, gain, near and far as puzzle-level (macro) figures over units. */
export function learnerFigures(data: StudyData, rows: ReadonlyArray<MarkedLearner>): Record<LearnerFigureKey, Figure> {
  const s = outcomeSummary(data, rows);
  return Object.fromEntries(LEARNER_KEYS.map(k => [k, asFigure(s?.[k].macro)])) as Record<LearnerFigureKey, Figure>;
}

/** What the outcome analysis adds to the public figures: item-level averages, the near/far gap, bands and task types. */
export function outcomeDetails(data: StudyData, rows: ReadonlyArray<MarkedLearner>) {
  const s = outcomeSummary(data, rows);
  if (!s) return null;
  return {
    micro: Object.fromEntries(LEARNER_KEYS.map(k => [k, asFigure(s[k].micro)])), nearFarGap: { macro: asFigure(s.nearFarGap.macro), micro: asFigure(s.nearFarGap.micro) },
    normalisedGain: s.normalisedGain ? { macro: asFigure(s.normalisedGain.macro), undefinedCells: s.normalisedGain.undefinedCells } : null,
    gainByBand: Object.fromEntries(Object.entries(s.gainByBand).map(([k, e]) => [k, asFigure(e)])),
    gainByTaskType: Object.fromEntries(Object.entries(s.gainByTaskType).map(([k, e]) => [k, asFigure(e)])),
    negativeGains: s.negativeGains,
  };
}

const judged = (data: StudyData, generator: string, dimension: Dimension, variant: string) =>
  data.judgments.filter(j => judgmentDimension(j) === dimension && judgmentVariant(j) === variant && data.decks.get(j.targetTrialId)?.[0]?.generator.alias === generator && j.value !== null);
const unitOfJudgment = (data: StudyData) => (j: Judgment) => data.decks.get(j.targetTrialId)![0]!.unit;

/** Per generator: the learners' figures, the judges' D1 and D2 and the decks' D3, each over units. */
export function generatorFigures(data: StudyData): Record<string, GeneratorFigures> {
  const seed = data.design.seed;
  const rows = primary(data);
  const baselines = new Set(['baseline:blank-deck', 'baseline:outline']);
  return Object.fromEntries(data.design.generators.map(g => {
    const own = rows.filter(r => r.generator === g.alias);
    const decks = [...data.decks.values()].flatMap(v => v.filter(d => d.variant === ORIGINAL && d.generator.alias === g.alias));
    const ok = decks.filter((d): d is Extract<typeof d, { status: 'ok' }> => d.status === 'ok');
    const d3 = Object.fromEntries(D3_KEYS.map(k => [k, overUnits(ok, d => d.unit, d => (d.metrics as DeckMetrics)[k], seed)])) as Record<D3Key, Figure>;
    const dims = Object.fromEntries(DIMENSIONS.map(dim => [dim, overUnits(judged(data, g.alias, dim, ORIGINAL), unitOfJudgment(data), j => j.value, seed)])) as Record<Dimension, Figure>;
    return [g.alias, { spec: g.spec, baseline: baselines.has(g.spec), ...learnerFigures(data, own), ...dims, d3, failedGenerations: decks.length - ok.length, outcomes: outcomeDetails(data, own) }];
  }));
}

/** Spearman and Kendall tau-b of two paired series with p-values; nulls where they are undefined (n < 2, constant series). */
export function correlation(x: ReadonlyArray<number>, y: ReadonlyArray<number>): Correlation {
  const safe = <T>(f: () => T): T | undefined => {
    try { return f(); } catch { return undefined; }
  };
  const num = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? null : v);
  const s = x.length >= 2 ? safe(() => spearman(x, y)) : undefined;
  const k = x.length >= 2 ? safe(() => kendallTauB(x, y)) : undefined;
  return { n: x.length, spearman: { rho: num(s?.rho), pValue: num(s?.pValue) }, kendall: { tau: num(k?.tau), pValue: num(k?.pValue) } };
}

export const deckId = (unit: string, generator: string) => `${unit}/${generator}`;

/**
 * Each deck's learner gain over the primary condition (the deck as generated, the first
 * puzzle-context and frames setting), keyed by deckId: the mean over its learner trials of
 * post - pre. The report's correlations and the validity analysis both read it.
 */
export function deckGains(data: StudyData): Map<string, { gain: number; trials: number }> {
  const rows = primary(data);
  const out = new Map<string, { gain: number; trials: number }>();
  for (const g of data.design.generators) {
    const own = rows.filter(r => r.generator === g.alias && learnerValue(r, 'gain') !== null);
    for (const [unit, gain] of unitMeans(own, r => r.record.unit, r => learnerValue(r, 'gain'))) {
      out.set(deckId(unit, g.alias), { gain, trials: own.filter(r => r.record.unit === unit).length });
    }
  }
  return out;
}

/** D1 and D2 against gain across generators (their means), and across decks (unit x generator). */
export function correlations(data: StudyData, generators: Record<string, GeneratorFigures>): Record<Dimension, { generators: Correlation; decks: Correlation }> {
  const gains = deckGains(data);
  return Object.fromEntries(DIMENSIONS.map(dim => {
    const pairs = Object.values(generators).filter(g => g[dim].mean !== null && g.gain.mean !== null);
    const deckDim = new Map<string, number>();
    for (const g of data.design.generators) {
      for (const [unit, v] of unitMeans(judged(data, g.alias, dim, ORIGINAL), unitOfJudgment(data), j => j.value)) deckDim.set(deckId(unit, g.alias), v);
    }
    const keys = [...deckDim.keys()].filter(k => gains.has(k)).sort();
    return [dim, {
      generators: correlation(pairs.map(g => g[dim].mean!), pairs.map(g => g.gain.mean!)),
      decks: correlation(keys.map(k => deckDim.get(k)!), keys.map(k => gains.get(k)!.gain)),
    }];
  })) as Record<Dimension, { generators: Correlation; decks: Correlation }>;
}

export interface InjectionVariant {
  kind: string;
  family: string;
  /** Decks (unit x generator) the injection changed; the others had nothing it could change. */
  changed: number;
  unchanged: number;
}

/**
 * Error injection: per variant, which decks it changed; per family (inject's analyseInjections),
 * each dimension's mean drop from the deck as generated, paired by deck (unit x generator), with
 * its bootstrap interval, paired t-test and d_z, targeted dimensions marked. D3 here is the
 * visual-aid share (the requested aids present), the D3 figure a visual error can lower.
 */
export function errorInjection(data: StudyData): { variants: InjectionVariant[]; families: FamilyEffect[] } {
  const scores = (variant: string) => {
    const out = new Map<string, Partial<Record<InjectionDimension, number>>>();
    const put = (key: string, dim: InjectionDimension, v: number) => out.set(key, { ...out.get(key), [dim]: v });
    for (const g of data.design.generators) {
      const rows = primary(data, variant).filter(r => r.generator === g.alias);
      for (const [u, v] of unitMeans(rows, r => r.record.unit, r => learnerValue(r, 'post'))) put(`${g.alias}|${u}`, 'post', v);
      for (const [u, v] of unitMeans(rows, r => r.record.unit, r => learnerValue(r, 'gain'))) put(`${g.alias}|${u}`, 'gain', v);
      for (const dim of DIMENSIONS) for (const [u, v] of unitMeans(judged(data, g.alias, dim, variant), unitOfJudgment(data), j => j.value)) put(`${g.alias}|${u}`, dim, v);
    }
    for (const records of data.decks.values()) {
      const d = records.find(r => r.variant === variant);
      if (d?.status === 'ok' && d.metrics.visualAids !== null) put(`${d.generator.alias}|${d.unit}`, 'd3', d.metrics.visualAids);
    }
    return out;
  };
  const original = scores(ORIGINAL);
  const variants: InjectionVariant[] = [];
  const pairs: InjectionPair[] = [];
  for (const kind of data.design.inject) {
    const family = (INJECTIONS as Record<string, { family: InjectionFamily }>)[kind]?.family;
    if (!family) continue;
    const decks = [...data.decks.values()].map(rs => rs.find(r => r.variant === kind)).filter(d => d !== undefined);
    variants.push({ kind, family, changed: decks.filter(d => d.status === 'ok').length, unchanged: decks.filter(d => d.status !== 'ok').length });
    for (const [key, injected] of scores(kind)) {
      const before = original.get(key);
      if (before) pairs.push({ family, original: before, injected });
    }
  }
  return { variants, families: analyseInjections(pairs, { seed: data.design.seed, resamples: RESAMPLES }) };
}
