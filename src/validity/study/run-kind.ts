import { resolve } from 'node:path';
import { z } from 'zod';
import { filePath } from '../../core/config/file-path.js';
import type { RunContext, RunKind, RunOutcome } from '../../core/index.js';
import { stopOf } from '../../engine/events.js';
import { buildModels, timeoutFlagHint } from '../../engine/models.js';
import { refuseCapWithoutPrices, runPrices, unpricedSpecs } from '../../engine/pricing.js';
import { observationsFromRun } from '../stored/observations.js';
import { loadStudyFile, type Study } from './load.js';
import { STUDY_RUN, studyRunId } from './plan.js';
import { modelEndpoints, runStudy } from './run.js';

/** A rating study run as a library user, the CLI or the web app describes it. */
export const StudyRunConfigSchema = z.strictObject({
  kind: z.literal(STUDY_RUN),
  /** The study file (YAML). */
  file: filePath(),
  /** Rate the judged targets of this stored run instead of the file's observations. */
  observationsRun: z.string().min(1).optional(),
  costCapUsd: z.number().min(0).optional(),
  /** A price table file; default the shipped one. */
  prices: filePath().optional(),
  retryErrors: z.boolean().default(false),
  /** Base URL of openai: raters (default OPENAI_BASE_URL). */
  baseUrl: z.string().min(1).optional(),
  concurrency: z.number().int().min(1).default(8),
  requestsPerMinute: z.number().int().min(1).optional(),
  maxAttempts: z.number().int().min(1).default(5),
  timeoutMs: z.number().int().min(1).optional(),
  /** The stored run this config continues (set in the config a run keeps); refused if the study now describes another. */
  resume: z.string().min(1).optional(),
});

export type StudyRunConfig = z.input<typeof StudyRunConfigSchema>;

/** A study run's outcome: the engine's counts, and how many ratings were read and left unscored. */
export interface StudyRunOutcome extends RunOutcome {
  ratings: { scored: number; unscored: number };
  /** Rater models with no price: their spend is unknown, not part of spentUsd. */
  unpriced: string[];
}

export async function startStudyRun(c: z.output<typeof StudyRunConfigSchema>, ctx: RunContext): Promise<StudyRunOutcome> {
  const draft = loadStudyFile(c.file, c.observationsRun ? { observationsRun: c.observationsRun } : {});
  const observations = draft.observations ?? (draft.source.type === 'run' ? await observationsFromRun(ctx.store, draft.source.runId) : []);
  const study: Study = { ...draft, observations };
  // A run resumed by id goes back to where it called its raters, whatever this shell's
  // OPENAI_BASE_URL says; a --base-url given is checked against them (its run id names them).
  const stored = c.resume && !c.baseUrl ? (await ctx.store.getRun(c.resume))?.config.endpoints : undefined;
  const models = await buildModels(study.raters, {
    store: ctx.store, seed: study.seed, maxAttempts: c.maxAttempts, ...(ctx.env ? { env: ctx.env } : {}), ...(c.baseUrl ? { baseURL: c.baseUrl } : {}),
    ...(stored ? { endpoints: stored } : {}),
    ...(c.requestsPerMinute ? { requestsPerMinute: c.requestsPerMinute } : {}), ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
    timeoutHint: timeoutFlagHint('validity run'),
  });
  const prices = await runPrices(ctx.store, studyRunId(study, modelEndpoints(models)), c.prices);
  refuseCapWithoutPrices(prices, study.raters.map(r => ({ spec: r, endpoint: models.get(r.alias)?.endpoint })), c.costCapUsd);
  const unpriced = unpricedSpecs(prices, study.raters.map(r => r.spec));
  if (unpriced.length) ctx.onEvent({ type: 'warning', message: `no price for ${unpriced.join(', ')}; their cost is reported as unknown, not $0 (give --prices FILE to price them)` });
  const { run, summary } = await runStudy({
    study, store: ctx.store, models, prices, ...(c.resume ? { resume: c.resume } : {}), retryErrors: c.retryErrors, ...(c.costCapUsd !== undefined ? { costCapUsd: c.costCapUsd } : {}),
    concurrency: provider => (provider === 'baseline' ? Math.max(c.concurrency, 16) : c.concurrency),
    ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.stopSignal ? { stopSignal: ctx.stopSignal } : {}), onEvent: ctx.onEvent,
  });
  const judgments = await ctx.store.listJudgments(run.id);
  const scored = judgments.filter(j => j.value !== null).length;
  return {
    runId: run.id, status: run.status === 'running' ? 'stopped' : run.status, done: summary.done, failed: summary.failed, pending: summary.pending,
    spentUsd: summary.spentUsd, ...stopOf(summary), ratings: { scored, unscored: judgments.length - scored }, unpriced,
  };
}

/** Rating studies (`paideia validity run`) as a kind of run. */
export const studyRunKind: RunKind<z.output<typeof StudyRunConfigSchema>> = {
  specVersion: 'paideia.run-kind.v1',
  name: STUDY_RUN,
  configSchema: StudyRunConfigSchema as unknown as z.ZodType<z.output<typeof StudyRunConfigSchema>>,
  start: startStudyRun,
  // The file's path absolute; the price table is the one stored with the run.
  resumeConfig: (c, runId) => ({ ...c, resume: runId, file: resolve(c.file), prices: undefined }),
};
