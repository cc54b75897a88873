import { describe, expect, it, vi } from 'vitest';
import type { ChatRequest, ChatResult } from '../../core/chat-model.js';
import { callError } from '../testing/call-error.js';
import { createReplayModel, defaultRequestHash, type ReplayQuery } from './index.js';

const stored: ChatResult = { text: 'stored answer', usage: { inputTokens: 12, outputTokens: 3 }, warnings: [], responseModel: 'gpt-4.1-2025-04-14' };
const request: ChatRequest = { messages: [{ role: 'user', content: 'q' }], params: { temperature: 0 }, context: { trialId: 't1', itemId: 'i1', repeat: 0, turn: 0 } };

describe('replay', () => {
  it('answers from the injected lookup with the trial context and a request hash', async () => {
    const lookup = vi.fn(async (q: ReplayQuery) => (q.trialId === 't1' ? stored : undefined));
    const model = createReplayModel({ runId: 'run-abc', lookup });
    expect(await model.generate(request)).toBe(stored);
    expect(lookup).toHaveBeenCalledWith({ trialId: 't1', itemId: 'i1', repeat: 0, turn: 0, requestHash: defaultRequestHash(request) });
    expect([model.provider, model.modelId, model.isBaseline]).toEqual(['replay', 'run-abc', false]);
  });

  it('hashes what was sent, not hints or context', () => {
    const base = defaultRequestHash(request);
    expect(defaultRequestHash({ ...request, hints: { gold: 'x' }, context: { trialId: 'other' } })).toBe(base);
    expect(defaultRequestHash({ ...request, params: { temperature: 1 } })).not.toBe(base);
  });

  it('fails with a non-retryable empty error naming the run when nothing is stored', async () => {
    const model = createReplayModel({ runId: 'run-xyz', lookup: async () => undefined });
    const error = await callError(model.generate(request));
    expect(error).toMatchObject({ kind: 'empty', isRetryable: false });
    expect(error.message).toContain('replay:run-xyz');
    expect(error.message).toContain('itemId=i1');
  });
});
