import { describe, expect, it } from 'vitest';
import { baseOfFineTune, modelFamily } from './family.js';

describe('modelFamily of fine-tunes', () => {
  it('reads an OpenAI fine-tune (ft:<base>:<org>:<suffix>:<id>) as its base model', () => {
    const cases: Array<[string, string]> = [
      ['openai:ft:gpt-4o-mini-2024-07-18:org::id', 'openai'],
      ['openai:ft:gpt-4.1-2025-04-14:acme-labs:tutor-v2:BkX9aZ3q', 'openai'],
      ['openai:FT:gpt-3.5-turbo-0125:personal::8abc123', 'openai'],
      // Fine-tunes of open models served by other vendors keep the base model's family.
      ['openai:ft:llama-3.1-8b-instruct:org::id', 'meta'],
      ['openai:openai/ft:gpt-4o-2024-08-06:org::id', 'openai'],
    ];
    for (const [spec, family] of cases) expect(modelFamily(spec), spec).toEqual({ family, source: 'table' });
  });
  it('lets neither the organisation nor the suffix of a fine-tune decide the family', () => {
    // "llama" and "mistral" appear only in the organisation and suffix: the base decides.
    expect(modelFamily('openai:ft:gpt-4o-mini-2024-07-18:llama-lovers:mistral-style:id').family).toBe('openai');
    // An unknown base falls back to its own first token, never to "ft".
    expect(modelFamily('openai:ft:olmo-2-13b:org::id')).toEqual({ family: 'olmo', source: 'model' });
  });
  it('leaves names that are not fine-tunes as they were', () => {
    expect(baseOfFineTune('gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(baseOfFineTune('llama3.1:8b')).toBe('llama3.1:8b');
    expect(baseOfFineTune('ft:gpt-4o-mini-2024-07-18:org::id')).toBe('gpt-4o-mini-2024-07-18');
    expect(modelFamily('ollama:llama3.1:8b').family).toBe('meta');
    expect(modelFamily('openai:fthree-7b').family).toBe('fthree');
    expect(modelFamily('openai:ft-model').family).toBe('ft');
  });
});
