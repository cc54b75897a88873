import { describe, expect, it } from 'vitest';
import { createMockModel } from '../testing/mock-model.js';
import { wrapChatModel, type ChatModelMiddleware } from './index.js';

const tag = (name: string, log: string[]): ChatModelMiddleware => ({
  name,
  transformRequest: ({ request }) => ({ ...request, messages: [...request.messages, { role: 'user', content: name }] }),
  wrapGenerate: async ({ doGenerate }) => {
    log.push(`>${name}`);
    const result = await doGenerate();
    log.push(`<${name}`);
    return { ...result, text: `${result.text}+${name}` };
  },
});

describe('wrapChatModel', () => {
  it('applies the first middleware outermost and keeps the model identity', async () => {
    const log: string[] = [];
    const inner = createMockModel(r => r.messages.map(m => m.content).join(','), { provider: 'openai', modelId: 'gpt-4.1' });
    const model = wrapChatModel(inner, tag('outer', log), tag('inner', log));
    const result = await model.generate({ messages: [{ role: 'user', content: 'q' }], params: {} });
    expect(log).toEqual(['>outer', '>inner', '<inner', '<outer']);
    expect(result.text).toBe('q,outer,inner+inner+outer');
    expect([model.provider, model.modelId, model.isBaseline, model.specVersion]).toEqual(['openai', 'gpt-4.1', false, 'paideia.chat-model.v1']);
  });

  it('lets a middleware answer without calling the model', async () => {
    const inner = createMockModel(() => 'live');
    const cached: ChatModelMiddleware = { wrapGenerate: async () => ({ text: 'cached', warnings: [] }) };
    expect((await wrapChatModel(inner, cached).generate({ messages: [], params: {} })).text).toBe('cached');
    expect(inner.calls).toHaveLength(0);
  });

  it('is the model itself with no middleware', () => {
    const inner = createMockModel(() => 'x');
    expect(wrapChatModel(inner)).toBe(inner);
  });
});
