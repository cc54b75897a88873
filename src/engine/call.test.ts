import { describe, expect, it } from 'vitest';
import { contentHash, jsonText, type ChatRequest, type JsonValue } from '../core/index.js';
import { withoutImageData } from '../providers/index.js';
import { requestHash } from './call.js';

// The cache key as every stored run was keyed: a change here would make resumes ask every stored step again.
const storedKey = (spec: string, endpoint: string | undefined, request: ChatRequest, distinct?: JsonValue) => contentHash({
  model: spec, endpoint, messages: withoutImageData(request).messages, params: request.params, tools: request.tools,
  toolChoice: request.toolChoice, hints: request.hints, distinct,
});

const requests: ChatRequest[] = [
  { messages: [{ role: 'user', content: 'Give the genitive of "focal".' }], params: {} },
  {
    messages: [{ content: 'You teach Ana.', role: 'system' }, { role: 'user', content: 'Help me with "1x = 2" \u00e9\n' }],
    params: { temperature: 0, maxTokens: 64, seed: 7 }, hints: { gold: 'focail', copy: 'focal' },
    context: { trialId: 't1', itemId: 'i1', repeat: 0, turn: 2, role: 'teacher' },
  },
  {
    messages: [{ role: 'user', content: 'look', images: [{ blob: { hash: 'ab12', mediaType: 'image/png', size: 8 }, data: 'iVBORw0K' }] }],
    params: { seed: 1 }, tools: [{ name: 'mark', description: 'Mark it', parameters: { type: 'object', properties: { score: { type: 'number' } } } }],
    toolChoice: 'mark',
  },
  { params: { maxTokens: undefined, temperature: 0.5 }, messages: [{ role: 'assistant', content: '' }], hints: undefined },
];

describe('requestHash', () => {
  it('keys every request as runs stored before it did, with and without endpoint and distinct', () => {
    for (const r of requests) {
      for (const endpoint of [undefined, 'http://127.0.0.1:9/v1']) {
        for (const distinct of [undefined, { dialogue: 'd1', turn: 3 }]) {
          expect(requestHash('openai:m', endpoint, r, distinct)).toBe(storedKey('openai:m', endpoint, r, distinct));
        }
      }
    }
  });

  it('leaves the context out of the key but keeps it in the text the store writes', () => {
    const [, r] = requests;
    expect(requestHash('openai:m', undefined, r!)).toBe(requestHash('openai:m', undefined, { ...r!, context: { trialId: 'other' } }));
    const stored = withoutImageData(r!);
    requestHash('openai:m', undefined, stored);
    expect(JSON.parse(jsonText(stored))).toEqual(JSON.parse(JSON.stringify(stored)));
  });

  it('has the store write an imaged request without its bytes', () => {
    const r = requests[2]!;
    requestHash('openai:m', undefined, r);
    const stored = withoutImageData(r);
    expect(jsonText(stored)).not.toContain('iVBORw0K');
    expect(JSON.parse(jsonText(stored))).toEqual(JSON.parse(JSON.stringify(stored)));
  });
});
