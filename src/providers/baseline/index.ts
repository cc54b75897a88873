import { createHash } from 'node:crypto';
import type { ChatModel, ChatRequest, ChatResult } from '../../core/chat-model.js';
import { NoSuchPluginError, ProviderCallError } from '../../core/errors.js';
import { canonicalJson } from '../../core/hash.js';

/** Baselines answered by this module; `script` has its own (it needs a file). */
export const BASELINE_NAMES = ['copy', 'gold', 'random'] as const;
export type BaselineName = (typeof BASELINE_NAMES)[number];

export interface BaselineSettings {
  /** Combined with each request's `params.seed` by `baseline:random`. Default 0. */
  seed?: number;
}

/**
 * Reference systems that need no model: the floor (`copy`, `random`) and ceiling (`gold`) of a
 * table. They read only `request.hints`, which the test's prompt template fills in, so they never
 * switch on the kind of test.
 */
export function createBaselineModel(name: string, settings: BaselineSettings = {}): ChatModel {
  const answer = answers[name as BaselineName];
  if (!answer) throw new NoSuchPluginError('baseline', name, [...BASELINE_NAMES, 'script']);
  const seed = settings.seed ?? 0;
  return {
    specVersion: 'paideia.chat-model.v1',
    provider: 'baseline',
    modelId: name,
    isBaseline: true,
    needsHints: [NEEDS[name as BaselineName]],
    generate: async function generateBaseline(request: ChatRequest): Promise<ChatResult> {
      return baselineResult(name, answer(request, seed));
    },
  };
}

/** What every baseline reports besides its text: no tokens, so no cost. */
export function baselineResult(name: string, text: string): ChatResult {
  return { text, usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop', responseModel: `baseline:${name}`, warnings: [] };
}

const NEEDS: Record<BaselineName, keyof NonNullable<ChatRequest['hints']>> = { copy: 'copy', gold: 'gold', random: 'options' };

const answers: Record<BaselineName, (request: ChatRequest, seed: number) => string> = {
  copy: request => request.hints?.copy ?? missingHint('copy', 'copy'),
  gold: request => request.hints?.gold ?? missingHint('gold', 'gold'),
  random: (request, seed) => {
    const options = request.hints?.options;
    if (!options || options.length === 0) return missingHint('random', 'options');
    return options[seededIndex(request, seed, options.length)]!;
  },
};

/**
 * A pick that depends only on (baseline seed, request seed, messages, options): the same trial
 * always gets the same option whatever order trials run in, and different items or repeats get
 * independent picks (a shared RNG stream would tie each pick to the call order).
 */
export function seededIndex(request: ChatRequest, seed: number, n: number): number {
  const key = canonicalJson({ seed, requestSeed: request.params.seed ?? null, messages: request.messages, options: request.hints?.options ?? [] });
  const digest = createHash('sha256').update(key).digest();
  // 48 bits keep the modulo bias far below anything a test could see.
  return Math.floor((digest.readUIntBE(0, 6) / 2 ** 48) * n);
}

function missingHint(name: string, hint: string): never {
  // Not retryable: the same request will lack the hint every time. A stored error, never a zero score.
  throw new ProviderCallError({
    message: `baseline:${name} needs request.hints.${hint}, but the test's prompt template did not provide it; this test cannot be run with baseline:${name}.`,
    kind: 'empty',
    isRetryable: false,
  });
}
