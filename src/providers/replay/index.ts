import type { ChatModel, ChatRequest, ChatResult } from '../../core/chat-model.js';
import { ProviderCallError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';

/** What the store is asked for: the trial context plus a hash of what was sent. */
export type ReplayQuery = NonNullable<ChatRequest['context']> & { requestHash?: string };

/** Finds the stored answer to a request; injected by whoever owns the store. */
export type ReplayLookup = (query: ReplayQuery) => Promise<ChatResult | undefined>;

export interface ReplaySettings {
  runId: string;
  lookup: ReplayLookup;
  /** Default: contentHash of { messages, params, tools, toolChoice } (hints and context excluded). */
  hashRequest?: (request: ChatRequest) => string;
}

export function defaultRequestHash(request: ChatRequest): string {
  return contentHash({ messages: request.messages, params: request.params, tools: request.tools, toolChoice: request.toolChoice });
}

/** Answers from a stored run, never calling a model, so scoring and reports can be rebuilt offline. */
export function createReplayModel(settings: ReplaySettings): ChatModel {
  const hashRequest = settings.hashRequest ?? defaultRequestHash;
  return {
    specVersion: 'paideia.chat-model.v1',
    provider: 'replay',
    modelId: settings.runId,
    isBaseline: false,
    generate: async function generateReplayed(request: ChatRequest): Promise<ChatResult> {
      const query: ReplayQuery = { ...request.context, requestHash: hashRequest(request) };
      const found = await settings.lookup(query);
      if (!found) {
        const where = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join(', ');
        // Not retryable: asking the store again gives the same answer.
        throw new ProviderCallError({
          message: `replay:${settings.runId} has no stored answer for this request (${where}); the run did not make this call or it failed.`,
          kind: 'empty',
          isRetryable: false,
        });
      }
      return found;
    },
  };
}
