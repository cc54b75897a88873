import { commandHint } from '../../core/command-hint.js';
import {
  ConfigError, parseModelSpec, PAIDEIA_VERSION, type ChatModel, type PriceTable, type RunEvent, type RunRecord, type RunSummary, type Store,
} from '../../core/index.js';
import { executeTrials } from '../../engine/execute.js';
import { DEFAULT_MAX_TOKENS } from '../../engine/limits.js';
import { pricedCosts } from '../../engine/pricing.js';
import { checkContinues } from '../../engine/run-config.js';
import { studyHash, type Study } from './load.js';
import { planStudyTrials, STUDY_RUN, studyRunId } from './plan.js';
import { ratingStep } from './step.js';

/** Where a run keeps its study (observations included), so report and rescore need no file. */
export const STUDY_ARTIFACT = { kind: 'validity-study', key: 'config' } as const;

export interface RunStudyOptions {
  study: Study;
  store: Store;
  /** The raters, built and wrapped with retry and rate-limit middleware, by alias. */
  models: ReadonlyMap<string, ChatModel>;
  prices: PriceTable;
  costCapUsd?: number;
  retryErrors?: boolean;
  /** The stored run this must continue: refused if the study (or a rater's endpoint) now makes another. */
  resume?: string;
  concurrency: (provider: string) => number;
  signal?: AbortSignal;
  stopSignal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
}

/** Where each rater is called (part of the study's run id). */
export function modelEndpoints(models: ReadonlyMap<string, ChatModel>): Record<string, string> {
  return Object.fromEntries([...models].flatMap(([alias, m]) => (m.endpoint ? [[alias, m.endpoint]] : [])));
}

/**
 * Run every cell of a rating study through the engine: each a stored call and a stored Judgment
 * (the parsed ordinal, or unscored with its reason and text). The run id is the study's hash, so
 * the same study resumes where it stopped; the cost cap counts every session.
 */
export async function runStudy(o: RunStudyOptions): Promise<{ run: RunRecord; summary: RunSummary }> {
  const { study, store } = o;
  const endpoints = modelEndpoints(o.models);
  const baselines = [...o.models].filter(([, m]) => m.isBaseline).map(([alias]) => alias);
  const runId = studyRunId(study, endpoints);
  checkContinues(o.resume, runId, `the study ${study.file}`);
  const now = new Date().toISOString();
  const run = await store.openRun({
    id: runId, kind: STUDY_RUN, createdAt: now, updatedAt: now, status: 'running', prices: o.prices, paideiaVersion: PAIDEIA_VERSION,
    config: {
      suites: [study.file], itemHashes: [studyHash(study)], models: study.raters, ...(Object.keys(endpoints).length ? { endpoints } : {}),
      repeats: study.repeats, seed: study.seed, params: study.params, tests: study.items.map(i => `validity:${i.id}`),
      ...(baselines.length ? { baselines } : {}), ...(study.params.maxTokens === undefined ? { maxTokens: DEFAULT_MAX_TOKENS } : {}),
    },
  });
  const trials = planStudyTrials(study, runId);
  await store.saveTrials(trials);
  await store.putArtifact(runId, STUDY_ARTIFACT.kind, STUDY_ARTIFACT.key, JSON.parse(JSON.stringify(study)));
  await store.setRunStatus(runId, 'running');
  o.onEvent?.({ type: 'planned', runId, kind: STUDY_RUN, trials: trials.length });
  const step = ratingStep(study);
  const summary = await executeTrials({
    store, runId, trials, stepOf: () => step, models: o.models,
    identityOf: alias => ({ spec: study.raters.find(r => r.alias === alias)!.spec, endpoint: run.config.endpoints?.[alias] }),
    cost: pricedCosts(run.prices, study.raters, alias => run.config.endpoints?.[alias]),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}), ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    poolOf: t => { const provider = parseModelSpec(t.modelSpec).provider; return { name: provider, size: o.concurrency(provider) }; },
    retryErrors: o.retryErrors ?? false,
    ...(o.signal ? { signal: o.signal } : {}), ...(o.stopSignal ? { stopSignal: o.stopSignal } : {}), ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });
  const status = summary.stoppedBy || summary.pending > 0 ? 'stopped' : summary.done === 0 && summary.failed > 0 ? 'failed' : 'completed';
  const note = summary.stoppedBy === 'cost-cap' ? `cost cap $${o.costCapUsd} reached` : summary.stoppedBy ? 'interrupted' : summary.failed ? `${summary.failed} rating call(s) failed` : undefined;
  await store.setRunStatus(runId, status, note);
  return { run: { ...run, status }, summary };
}

/** The study a run was made from, as stored with it. */
export async function loadStoredStudy(store: Store, runId: string): Promise<Study> {
  const found = (await store.listArtifacts(runId, STUDY_ARTIFACT.kind)).find(a => a.key === STUDY_ARTIFACT.key);
  if (!found) throw new ConfigError([{ field: 'run-id', message: `run ${runId} is not a rating study (no stored study); list the runs with: ${commandHint(['runs'], store.url)}` }]);
  return found.value as unknown as Study;
}

/** What a rescore found: judgments read again from the stored answers, and cells that would need a call. */
export interface StudyRescore {
  /** The study as stored (its file and where its observations came from, for the hint that runs the missing cells). */
  study: Pick<Study, 'file' | 'source'>;
  judgments: number;
  scored: number;
  unscored: number;
  needsCall: number;
}

/**
 * Read every rating again from the stored answers with the current ordinal parser, calling
 * nothing: the same engine loop as the run, told to stay offline.
 */
export async function rescoreStudy(store: Store, runId: string): Promise<StudyRescore> {
  const run = await store.getRun(runId);
  if (!run || run.kind !== STUDY_RUN) throw new ConfigError([{ field: 'run-id', message: `run ${runId} is not a rating study` }]);
  const study = await loadStoredStudy(store, runId);
  const statuses = await store.listTrialStatuses(runId);
  const trials = planStudyTrials(study, runId).filter(t => statuses.has(t.id));
  const step = ratingStep(study);
  const summary = await executeTrials({
    store, runId, trials, stepOf: () => step, models: new Map(), offline: true,
    identityOf: alias => ({ spec: study.raters.find(r => r.alias === alias)?.spec ?? alias, endpoint: run.config.endpoints?.[alias] }),
    cost: pricedCosts(run.prices, study.raters, alias => run.config.endpoints?.[alias]),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}),
    poolOf: () => ({ name: 'study', size: 64 }),
  });
  const judgments = (await store.listJudgments(runId)).filter(j => j.producer.name === step.name);
  const scored = judgments.filter(j => j.value !== null).length;
  return { study: { file: study.file, source: study.source }, judgments: judgments.length, scored, unscored: judgments.length - scored, needsCall: summary.needsCall };
}
