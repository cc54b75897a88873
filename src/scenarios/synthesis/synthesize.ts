import type { Store } from '../../core/store.js';
import { SynthesisError } from './ask.js';
import type { SynthesisConfig } from './loop.js';
import { runSynthesis } from './run.js';
import type { RoundRecord, SynthesisModels } from './types.js';

export interface SynthesisOptions extends SynthesisConfig {
  models: SynthesisModels;
  store: Store;
  /** Told each stored round, in order, once the synthesis has finished. */
  onRound?: (r: RoundRecord) => void;
  signal?: AbortSignal;
}

export interface SynthesisResult {
  runId: string;
  rounds: RoundRecord[];
  best: RoundRecord;
  stoppedBy: 'plateau' | 'rounds';
  yaml: string;
}

/**
 * One rubric synthesis (see synthesisLoop), run by the engine as one trial: every model call is
 * stored as it is made, and the same options resume a killed synthesis without asking again.
 */
export async function synthesize(o: SynthesisOptions): Promise<SynthesisResult> {
  const { models, store, onRound, signal, ...config } = o;
  const done = await runSynthesis({ store, models, specs: config.specs, cells: [{ id: '', config, header: 'Synthesised by paideia scenario synthesize' }], ...(signal ? { signal } : {}) });
  const outcome = done.outcomes.get('')!;
  for (const r of outcome.rounds) onRound?.(r);
  if (outcome.failure) {
    const f = outcome.failure;
    throw new SynthesisError(f.step, f.attempts, f.problems, f.raw);
  }
  if (!outcome.result) {
    throw new SynthesisError(`synthesis ${done.runId}`, 0, [done.failed ? 'a model call failed after its retries (stored; run the same command again to continue)' : 'it was interrupted (run the same command again to continue)'], '');
  }
  const best = outcome.rounds.find(r => r.round === outcome.result!.best)!;
  return { runId: done.runId, rounds: outcome.rounds, best, stoppedBy: outcome.result.stoppedBy, yaml: outcome.result.yaml };
}
