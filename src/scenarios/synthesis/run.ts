import {
  contentHash, type ChatModel, type ChatRequest, type ChatResult, type JsonValue, type ModelSpec, type StepKind, type Store, type Trial,
} from '../../core/index.js';
import { PAIDEIA_VERSION } from '../../core/version.js';
import { executeTrials } from '../../engine/execute.js';
import { pricedCosts } from '../../engine/pricing.js';
import { SynthesisError } from './ask.js';
import { ROUND_KIND, SYNTHESIS_KIND, synthesisLoop, type SynthesisConfig, type SynthesisOutcome } from './loop.js';
import type { RoundRecord, SynthesisModels } from './types.js';

/** Step kind of a synthesis: one trial per synthesis, one step per model call. */
export const SYNTHESIS_STEP = 'synthesis';
const ROLES = ['generator', 'answerer', 'judge'] as const;

/** The model call a replayed synthesis reached that the store does not hold yet. */
class NeedsCall {
  constructor(readonly model: string, readonly request: ChatRequest) {}
}

/** Models that answer from a trial's stored results in call order, and stop at the first call not made yet. */
function replayModels(results: ReadonlyArray<ChatResult>): SynthesisModels {
  let next = 0;
  const make = (role: string): ChatModel => ({
    specVersion: 'paideia.chat-model.v1', provider: 'replay', modelId: role, isBaseline: false,
    generate: async function replayed(request: ChatRequest) {
      const i = next++;
      if (i < results.length) return results[i]!;
      throw new NeedsCall(role, request);
    },
  });
  return { generator: make('generator'), answerer: make('answerer'), judge: make('judge') };
}

/** A synthesis cell: its config and where its artifacts go (`<prefix>anchors`, `<prefix>round-01`, ...). */
export interface SynthesisCell { id: string; config: SynthesisConfig; header: string }

/**
 * The synthesis loop as a step: replayed from the trial's stored calls, it asks for the next call
 * (generator, answerer or judge) or finishes with its rounds, result and scenario as artifacts.
 * Calls are made one at a time, so the replay order is the call order.
 */
export function synthesisStep(cells: ReadonlyMap<string, SynthesisCell>): StepKind {
  return {
    specVersion: 'paideia.step.v1', name: SYNTHESIS_STEP, version: '1', judgesTarget: false,
    async next({ trial, results }) {
      const cell = cells.get(trial.itemId)!;
      let outcome: SynthesisOutcome;
      try {
        outcome = await synthesisLoop({ ...cell.config, concurrency: 1 }, replayModels(results), cell.header);
      } catch (error) {
        if (error instanceof NeedsCall) return { type: 'call', model: error.model, request: error.request, distinct: { synthesis: trial.id, call: results.length } };
        if (error instanceof SynthesisError) {
          outcome = { anchors: null, rounds: [], failure: { round: 0, judge: '', step: error.step, attempts: error.attempts, problems: error.problems, raw: error.lastAnswer } };
        } else throw error;
      }
      const prefix = cell.id === '' ? '' : `${cell.id}/`;
      const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as JsonValue;
      const artifacts = [
        { kind: SYNTHESIS_KIND, key: `${prefix}anchors`, value: json(outcome.anchors) },
        ...outcome.rounds.map(r => ({ kind: ROUND_KIND, key: `${prefix}round-${String(r.round).padStart(2, '0')}`, value: json(r) })),
        outcome.failure
          ? { kind: SYNTHESIS_KIND, key: `${prefix}failure`, value: json(outcome.failure) }
          : { kind: SYNTHESIS_KIND, key: `${prefix}result`, value: json({ best: outcome.best!.round, stoppedBy: outcome.stoppedBy, rounds: outcome.rounds.map(r => ({ round: r.round, decision: r.decision, quality: r.quality, drift: r.drift })), yaml: outcome.yaml }) },
      ];
      return { type: 'done', artifacts };
    },
  };
}

export interface SynthesisRunOptions {
  store: Store;
  /** Models by role (generator, answerer, judge): shared by every cell. */
  models: SynthesisModels;
  specs: SynthesisConfig['specs'];
  cells: SynthesisCell[];
  /** Cells synthesised at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
}

/** The run id of a set of cells: what they are asked to do, so the same command resumes the same run. */
export function synthesisRunId(cells: ReadonlyArray<SynthesisCell>, specs: SynthesisConfig['specs']): string {
  return `syn-${contentHash({ cells: cells.map(c => ({ id: c.id, config: { ...c.config, specs: undefined } })), specs: ROLES.map(r => specs[r].spec) }, 16)}`;
}

/**
 * Run synthesis cells as trials of one engine run: every call stored as it is made, a killed run
 * resumed by the same command, cells run `concurrency` at a time. Returns each cell's outcome as stored.
 */
export async function runSynthesis(o: SynthesisRunOptions): Promise<{ runId: string; outcomes: Map<string, { rounds: RoundRecord[]; result?: { best: number; stoppedBy: 'plateau' | 'rounds'; yaml: string }; failure?: SynthesisOutcome['failure'] }>; failed: number; pending: number }> {
  const runId = synthesisRunId(o.cells, o.specs);
  const now = new Date().toISOString();
  const specs: ModelSpec[] = ROLES.map(r => ({ ...o.specs[r], alias: r }));
  const prices = { source: 'none', date: '', models: {} };
  await o.store.openRun({
    id: runId, kind: 'synthesis', createdAt: now, updatedAt: now, status: 'running', prices, paideiaVersion: PAIDEIA_VERSION,
    config: { suites: [], itemHashes: o.cells.map(c => contentHash(c.config, 16)), models: specs, repeats: 1, seed: 0, params: {}, tests: ['synthesis'] },
  });
  const trials: Trial[] = o.cells.map((c, index) => ({
    id: contentHash({ runId, cell: c.id, config: { ...c.config, specs: undefined } }), runId, index, itemId: c.id, itemHash: contentHash(c.config, 16),
    test: 'synthesis', modelAlias: 'generator', modelSpec: o.specs.generator.spec, promptVersion: SYNTHESIS_STEP, repeat: 0, seed: 0, kind: SYNTHESIS_STEP, variant: 'default',
  }));
  await o.store.saveTrials(trials);
  const models = new Map<string, ChatModel>(ROLES.map(r => [r, o.models[r]]));
  const step = synthesisStep(new Map(o.cells.map(c => [c.id, c])));
  const summary = await executeTrials({
    store: o.store, runId, trials, stepOf: () => step, models,
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)!.spec, endpoint: models.get(alias)?.endpoint }),
    cost: pricedCosts(prices, specs, alias => models.get(alias)?.endpoint),
    poolOf: () => ({ name: 'synthesis', size: o.concurrency ?? 4 }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const [found, rounds] = await Promise.all([o.store.listArtifacts(runId, SYNTHESIS_KIND), o.store.listArtifacts(runId, ROUND_KIND)]);
  const outcomes = new Map(o.cells.map(c => {
    const prefix = c.id === '' ? '' : `${c.id}/`;
    const own = (key: string) => found.find(a => a.key === `${prefix}${key}`)?.value as never;
    const mine = rounds.filter(a => a.key.startsWith(`${prefix}round-`) && !a.key.slice(prefix.length + 6).includes('/')).sort((a, b) => (a.key < b.key ? -1 : 1));
    return [c.id, { rounds: mine.map(a => a.value as unknown as RoundRecord), ...(own('result') ? { result: own('result') } : {}), ...(own('failure') ? { failure: own('failure') } : {}) }];
  }));
  const failures = [...outcomes.values()].filter(x => x.failure).length;
  const unfinished = summary.pending > 0 || summary.stoppedBy !== undefined;
  await o.store.setRunStatus(runId, unfinished ? 'stopped' : summary.failed + failures > 0 ? 'failed' : 'completed');
  return { runId, outcomes, failed: summary.failed + failures, pending: summary.pending };
}
