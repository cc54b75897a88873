import { join } from 'node:path';
import { commandHint } from '../../core/command-hint.js';
import { packageRoot } from '../../core/package-root.js';
import { ConfigError, contentHash, type ConfigIssue, type RunContext, type RunOutcome, type StepKind, type Trial, type JsonValue } from '../../core/index.js';
import { PAIDEIA_VERSION } from '../../core/version.js';
import { stopOf } from '../../engine/events.js';
import { executeTrials } from '../../engine/execute.js';
import { DEFAULT_MAX_TOKENS } from '../../engine/limits.js';
import { buildModels } from '../../engine/models.js';
import { pricedCosts, refuseCapWithoutPrices, unpricedSpecs } from '../../engine/pricing.js';
import { checkContinues } from '../../engine/run-config.js';
import { loadPriceTable } from '../../providers/pricing.js';
import { findUnit, loadUnits } from '../units/load.js';
import { deckStep } from '../steps/deck-step.js';
import { DECK_PROMPT_VERSION } from '../steps/deck-prompt.js';
import { DECK_INJECTIONS } from '../steps/injections.js';
import { deckJudgeStep } from '../steps/judge-step.js';
import { learnerStep } from '../steps/learner-step.js';
import { LEARNER_PROMPT_VERSION } from '../steps/protocol.js';
import { chromiumRenderer } from '../steps/renderer.js';
import { JUDGE_PROMPT_VERSION } from '../steps/rubric.js';
import type { DeckRenderer } from '../steps/deck-record.js';
import { LEARNING_RUN, type LearningRunSettings } from './config.js';
import { DECK_JUDGE_STEP, DECK_STEP, LEARNER_STEP, STUDY_ARTIFACT, planLearningTrials, unitHash } from './plan.js';
import { learningRoles } from './roles.js';

/** The shipped units, from src/ and dist/ alike. */
/** The units shipped with the package (found from src/ and from dist/ alike). */
export const shippedUnits = (): string => join(packageRoot(), 'data', 'units');

const VERSIONS = { deck: DECK_PROMPT_VERSION, learner: LEARNER_PROMPT_VERSION, judge: JUDGE_PROMPT_VERSION };

export interface LearningRunOptions {
  /** Tests render with their own renderer; default one Chromium for the run. */
  renderer?: DeckRenderer;
}

/**
 * A learning study as one engine run: decks (units x generators, their error-injected variants),
 * learners and judge panels over them, every call stored, one cost cap. The run id hashes the
 * study, so the same command resumes the same run and asks only for what is not stored.
 */
export async function runLearningStudy(s: LearningRunSettings, ctx: RunContext, o: LearningRunOptions = {}): Promise<RunOutcome> {
  const { store } = ctx;
  const loaded = loadUnits(s.unitPaths ?? [shippedUnits()]);
  const issues: ConfigIssue[] = s.units.flatMap(id => (loaded.some(u => u.unit.id === id) ? [] : [{ field: '--units', message: `no unit "${id}"; known: ${loaded.map(u => u.unit.id).join(', ')}` }]));
  const unknown = s.inject.filter(f => !DECK_INJECTIONS.has(f));
  if (unknown.length) issues.push({ field: '--inject', message: `unknown error injection ${unknown.join(', ')}; known: ${[...DECK_INJECTIONS.keys()].join(', ')}` });
  const roles = ConfigError.collect(issues, () => learningRoles(s));
  if (issues.length || !roles) throw new ConfigError(issues);
  const units = s.units.map(id => findUnit(loaded, id));
  const study = {
    units: units.map(u => ({ id: u.unit.id, hash: unitHash(u.unit) })), generators: roles.generators, learners: roles.learners, judges: roles.judges,
    repeats: s.repeats, puzzleContext: s.puzzleContext, frames: s.frames, inject: s.inject, seed: s.seed, versions: VERSIONS,
  };
  const runId = `lrn-${contentHash(study, 16)}`;
  checkContinues(s.resume, runId, 'the learning study (its units, roles and settings)');
  const existing = await store.getRun(runId);
  // A stored run prices with the table it was planned with (a resume by id gives no file).
  const prices = existing?.prices ?? loadPriceTable(s.prices);
  const unpriced = unpricedSpecs(prices, roles.models.map(m => m.spec));
  if (unpriced.length && s.costCapUsd === undefined) ctx.onEvent({ type: 'warning', message: `no price for ${unpriced.join(', ')}; their cost is reported as unknown, not $0 (give --prices FILE to price them)` });
  const models = await buildModels(roles.models, {
    store, seed: s.seed, maxAttempts: s.maxAttempts, ...(ctx.env ? { env: ctx.env } : {}), ...(s.baseUrl ? { baseURL: s.baseUrl } : {}),
    ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}), ...(existing?.config.endpoints ? { endpoints: existing.config.endpoints } : {}),
    // `paideia learning run` has no --timeout; a resume of the study takes one.
    timeoutHint: ms => `if the model is slow, continue with a longer one: ${commandHint(['run', '--resume', runId, '--retry-errors', '--timeout', String(ms * 2)], store.url)}`,
  });
  refuseCapWithoutPrices(prices, roles.models.map(m => ({ spec: m, endpoint: models.get(m.alias)?.endpoint })), s.costCapUsd);
  const endpoints = Object.fromEntries([...models].flatMap(([alias, m]) => (m.endpoint ? [[alias, m.endpoint]] : [])));
  const now = new Date().toISOString();
  const baselines = [...roles.codeGenerators.keys(), ...roles.codeLearners];
  const run = await store.openRun({
    id: runId, kind: LEARNING_RUN, createdAt: now, updatedAt: now, status: 'running', prices, paideiaVersion: PAIDEIA_VERSION,
    config: {
      suites: [...new Set(units.map(u => u.file))], itemHashes: study.units.map(u => u.hash).sort(), models: [...roles.generators, ...roles.learners, ...roles.judges],
      repeats: s.repeats, seed: s.seed, params: {}, tests: ['learning:deck', 'learning:learner', 'learning:d1', 'learning:d2'],
      ...(baselines.length ? { baselines } : {}), ...(Object.keys(endpoints).length ? { endpoints } : {}), maxTokens: DEFAULT_MAX_TOKENS,
    },
  });
  const plan = planLearningTrials({ runId, units: units.map(u => u.unit), generators: roles.generators, learners: roles.learners, judges: roles.judges, settings: s, versions: VERSIONS });
  await store.saveTrials(plan.trials);
  // The units themselves go with the design, so the report marks answers without the unit files.
  await store.putArtifact(runId, STUDY_ARTIFACT, 'design', JSON.parse(JSON.stringify({ ...study, unitContent: units.map(u => u.unit) })) as JsonValue);
  await store.setRunStatus(runId, 'running');
  ctx.onEvent({ type: 'planned', runId, kind: LEARNING_RUN, trials: plan.trials.length });

  const unitMap = new Map(units.map(u => [u.unit.id, u.unit]));
  const imageModels = new Set(s.imageModels);
  const renderer = o.renderer ?? chromiumRenderer();
  const steps = new Map<string, StepKind>([
    [DECK_STEP, deckStep({ store, renderer, injections: DECK_INJECTIONS, units: unitMap, cells: plan.cells, codeGenerators: roles.codeGenerators })],
    [LEARNER_STEP, learnerStep({ store, runId, units: unitMap, cells: plan.cells, codeLearners: roles.codeLearners, imageModels })],
    [DECK_JUDGE_STEP, deckJudgeStep({ store, runId, units: unitMap, cells: plan.cells, imageModels })],
  ]);
  const specOf = new Map(run.config.models.map(m => [m.alias, m.spec]));
  let summary;
  try {
    summary = await executeTrials({
      store, runId, trials: plan.trials, stepOf: (t: Trial) => steps.get(t.kind!)!, models,
      identityOf: alias => ({ spec: specOf.get(alias)!, endpoint: models.get(alias)?.endpoint }),
      cost: pricedCosts(run.prices, run.config.models, alias => models.get(alias)?.endpoint),
      ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}), ...(s.costCapUsd !== undefined ? { costCapUsd: s.costCapUsd } : {}),
      poolOf: () => ({ name: 'learning', size: s.concurrency }), retryErrors: s.retryErrors,
      ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.stopSignal ? { stopSignal: ctx.stopSignal } : {}),
      onEvent: e => { if (e.type !== 'planned') ctx.onEvent(e); },
    });
  } finally {
    if (!o.renderer) await (renderer as ReturnType<typeof chromiumRenderer>).close();
  }
  const unfinished = summary.stoppedBy !== undefined || summary.pending > 0 || summary.blocked > 0;
  const status = unfinished ? 'stopped' : 'completed';
  await store.setRunStatus(runId, status, summary.stoppedBy === 'cost-cap' ? `cost cap $${s.costCapUsd} reached` : summary.stoppedBy ? 'interrupted' : summary.failed ? `${summary.failed} trial(s) failed` : undefined);
  return {
    runId, status, done: summary.done, failed: summary.failed, pending: summary.pending + summary.blocked, spentUsd: summary.spentUsd,
    ...stopOf(summary),
  };
}
