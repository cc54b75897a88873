import type { ChatModel, ChatRequest, ChatResult, GenerateOptions } from '../../core/chat-model.js';

export type MockResponder = (request: ChatRequest, options: GenerateOptions, index: number) => string | ChatResult | Promise<string | ChatResult>;

/** A ChatModel answered by a function, recording every call; for middleware and engine tests. */
export interface MockChatModel extends ChatModel {
  readonly calls: Array<{ request: ChatRequest; options: GenerateOptions }>;
}

/** A string answer becomes a result with usage 1/1; throw from `respond` to fail the call. */
export function createMockModel(respond: MockResponder, names: { provider?: string; modelId?: string } = {}): MockChatModel {
  const calls: MockChatModel['calls'] = [];
  return {
    specVersion: 'paideia.chat-model.v1',
    provider: names.provider ?? 'mock',
    modelId: names.modelId ?? 'mock',
    isBaseline: false,
    calls,
    generate: async function generateMock(request, options = {}) {
      const index = calls.push({ request, options }) - 1;
      const answer = await respond(request, options, index);
      return typeof answer === 'string' ? { text: answer, usage: { inputTokens: 1, outputTokens: 1 }, warnings: [] } : answer;
    },
  };
}
