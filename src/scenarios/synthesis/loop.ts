import type { ModelSpec } from '../../core/model-spec.js';
import { parseScenario } from '../load.js';
import { CallCounter, SynthesisError } from './ask.js';
import { answerQuestions, generateQuestions, initialGenerationPrompt, scoreCases } from './cases.js';
import { diagnose, drift, evolveMetrics, evolvePrompt, lowestCases, quality } from './evolve.js';
import { draftMetrics } from './metrics.js';
import {
  DEFAULT_DIMENSIONS, DEFAULT_THRESHOLDS, SCALE, type Case, type RoundDecision, type RoundRecord, type RubricVersion,
  type SeedDimension, type SynthesisModels, type Thresholds,
} from './types.js';
import { scenarioYaml } from './yaml.js';

/** Artifact kinds: one `synthesis-round` per round; `synthesis` holds the anchors and the result. */
export const ROUND_KIND = 'synthesis-round';
export const SYNTHESIS_KIND = 'synthesis';

/** What a synthesis is asked to do (its models aside): the run id hashes it, so the same command resumes it. */
export interface SynthesisConfig {
  description: string;
  dimensions?: ReadonlyArray<SeedDimension>;
  /** The specs behind the models: recorded with the run and written into the scenario. */
  specs: { generator: ModelSpec; answerer: ModelSpec; judge: ModelSpec };
  /** Most rounds (default 5). */
  rounds?: number;
  /** Test questions per round (default 8). */
  questions?: number;
  /** Frozen anchor cases re-scored every round (default 4). */
  anchors?: number;
  thresholds?: Partial<Thresholds>;
  /** Calls per generator step (and per judged case) before giving up (default 3). */
  attempts?: number;
  concurrency?: number;
  /** Scenario name in the YAML (default `synthesized`). */
  name?: string;
  scripts?: { answerer?: string; judge?: string };
  /** Where the YAML will be written: relative script paths are checked from there. */
  file?: string;
  /** How the best round is chosen: the quality criterion (default), or SceneGen's weighted mean score. */
  select?: 'quality' | 'weighted-mean';
}

/** What one synthesis made: its rounds, the best one and the runnable scenario, or why it failed. */
export interface SynthesisOutcome {
  anchors: unknown;
  rounds: RoundRecord[];
  best?: RoundRecord;
  stoppedBy?: 'plateau' | 'rounds';
  yaml?: string;
  failure?: { round: number; judge: string; step: string; attempts: number; problems: string[]; raw: string };
}

/**
 * Rubric synthesis. Draft metrics; freeze an anchor set; then per round: generate questions with
 * the current prompt, answer them, judge them and the anchors with the current metrics, and
 * decide. A candidate whose anchor scores drift beyond the threshold, or whose quality falls
 * below the best's, is rolled back: the next candidate is evolved from the best version again.
 * Stop after `patience` rounds without improvement, or after `rounds`. A pure function of the
 * models' answers: the synthesis step (run.ts) replays it over the stored calls.
 */
export async function synthesisLoop(o: SynthesisConfig, models: SynthesisModels, header: string): Promise<SynthesisOutcome> {
  const dims = o.dimensions ?? DEFAULT_DIMENSIONS;
  const t: Thresholds = { ...DEFAULT_THRESHOLDS, ...o.thresholds };
  const rounds = o.rounds ?? 5;
  const n = o.questions ?? 8;
  const attempts = o.attempts ?? 3;
  const concurrency = o.concurrency ?? 4;
  const calls = new CallCounter();
  const { generator, answerer, judge } = models;

  const metrics = await draftMetrics({ generator, description: o.description, dimensions: dims, attempts, calls });
  const prompt0 = initialGenerationPrompt(o.description);
  const anchorQuestions = await generateQuestions({ generator, prompt: prompt0, n: o.anchors ?? 4, idPrefix: 'anchor-', attempts, calls });
  const anchorAnswers = await answerQuestions({ answerer, description: o.description, questions: anchorQuestions, concurrency, calls });
  const anchors: Case[] = anchorQuestions.map((q, i) => ({ question: q, answer: anchorAnswers[i]! }));
  const anchorsRecord = { dimensions: dims, thresholds: t, metrics, anchors };

  const records: RoundRecord[] = [];
  let candidate: RubricVersion = { metrics, generationPrompt: prompt0 };
  let best: RoundRecord | undefined;
  let bestByMean: RoundRecord | undefined;
  let stale = 0;
  let stoppedBy: 'plateau' | 'rounds' = 'rounds';
  for (let round = 1; round <= rounds; round++) {
    const questions = await generateQuestions({ generator, prompt: candidate.generationPrompt, n, idPrefix: `r${round}-q`, attempts, calls });
    const answers = await answerQuestions({ answerer, description: o.description, questions, concurrency, calls });
    const cases = questions.map((q, i) => ({ question: q, answer: answers[i]! }));
    let lastUnscored: { raw: string; problems: string[] } | undefined;
    const judgeWith = (list: Case[]) => scoreCases({
      judge, description: o.description, metrics: candidate.metrics, cases: list, attempts, concurrency, calls,
      onUnscored: (raw, problems) => { lastUnscored = { raw, problems }; },
    });
    const scores = await judgeWith(cases);
    if (scores.length > 0 && scores.every(s => Object.values(s).every(v => v === null))) {
      // Nothing to learn from a round the judge never scored: stop, keep the rounds stored so far, write nothing.
      const failure = new SynthesisError(
        `judge ${o.specs.judge.alias}=${o.specs.judge.spec}'s scoring of round ${round} (every one of its ${scores.length} case(s) is unscored)`,
        attempts, lastUnscored?.problems ?? [], lastUnscored?.raw ?? '',
      );
      return { anchors: anchorsRecord, rounds: records, failure: { round, judge: o.specs.judge.spec, step: failure.step, attempts, problems: failure.problems, raw: failure.lastAnswer } };
    }
    const anchorScores = await judgeWith(anchors);
    const stats = diagnose(candidate.metrics, scores, t);
    const q = quality(stats);
    const d = best ? drift(best.anchorScores, anchorScores, candidate.metrics) : 0;
    const decision: RoundDecision = !best ? 'accepted'
      : d !== null && d > t.drift ? 'rollback-drift'
        : q < best.quality - t.minGain ? 'rollback-regression'
          : q > best.quality + t.minGain ? 'improved' : 'no-improvement';
    const record: RoundRecord = {
      round, version: candidate, changed: changes(best?.version, candidate), questions, answers, scores, stats, quality: q,
      anchorScores, drift: d, decision, best: decision === 'accepted' || decision === 'improved' ? round : best!.round,
    };
    if (record.best === round) best = record;
    // SceneGen's selection: the round whose cases score highest on the weighted mean; the rollbacks stay the quality rule's.
    if (o.select === 'weighted-mean' && weightedMean(record, record.version.metrics) > (bestByMean ? weightedMean(bestByMean, bestByMean.version.metrics) : -Infinity)) bestByMean = record;
    stale = decision === 'accepted' || decision === 'improved' ? 0 : stale + 1;
    records.push(record);
    if (stale >= t.patience) { stoppedBy = 'plateau'; break; }
    if (round === rounds) break;
    // The next candidate always grows from the best version, which is what a rollback means.
    const b = best!;
    const bestCases = b.questions.map((qq, i) => ({ question: qq, answer: b.answers[i]! }));
    candidate = {
      metrics: await evolveMetrics({ generator, metrics: b.version.metrics, stats: b.stats, attempts, calls }),
      generationPrompt: await evolvePrompt({ generator, prompt: b.version.generationPrompt, lowest: lowestCases(bestCases, b.scores, b.version.metrics, 3), attempts, calls }),
    };
  }

  const final = o.select === 'weighted-mean' ? bestByMean! : best!;
  const yaml = scenarioYaml({
    name: o.name ?? 'synthesized', description: o.description, metrics: final.version.metrics, questions: final.questions,
    answerer: o.specs.answerer, judge: o.specs.judge, ...(o.scripts ? { scripts: o.scripts } : {}),
    header: `${header}: best of ${records.length} round(s) is round ${final.round}${o.select === 'weighted-mean' ? ` by weighted mean score ${weightedMean(final, final.version.metrics).toFixed(3)}` : ''}, quality ${final.quality.toFixed(3)}; stopped by ${stoppedBy}.`,
  });
  // The result must be a scenario `scenario run` accepts; a failure here is a bug, not bad input.
  parseScenario(o.file ?? 'synthesized.yaml', yaml, { env: {} });
  return { anchors: anchorsRecord, rounds: records, best: final, stoppedBy, yaml };
}

/** SceneGen's round score: the weighted mean over its scored cases of sum_i w_i * s_i, s_i on [0, 1] (the metrics' scale). */
export function weightedMean(r: Pick<RoundRecord, 'scores'>, metrics: ReadonlyArray<{ field: string; weight: number }>): number {
  const total = metrics.reduce((a, m) => a + m.weight, 0);
  const per = r.scores.flatMap(s => {
    if (metrics.some(m => s[m.field] === null || s[m.field] === undefined)) return [];
    return [metrics.reduce((a, m) => a + (m.weight / total) * (((s[m.field] as number) - SCALE.min) / (SCALE.max - SCALE.min)), 0)];
  });
  return per.length ? per.reduce((a, b) => a + b, 0) / per.length : -Infinity;
}

function changes(from: RubricVersion | undefined, to: RubricVersion): RoundRecord['changed'] {
  if (!from) return { metrics: [], prompt: false };
  const before = new Map(from.metrics.map(m => [m.field, m]));
  const metrics = to.metrics.filter(m => {
    const b = before.get(m.field);
    return !b || b.description !== m.description || b.positive !== m.positive || b.negative !== m.negative;
  }).map(m => m.field);
  return { metrics, prompt: from.generationPrompt !== to.generationPrompt };
}
