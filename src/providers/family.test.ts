import { describe, expect, it } from 'vitest';
import { baseOfFineTune, familyOf, modelFamily } from './family.js';

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

describe('modelFamily', () => {
  it('follows the documented table', () => {
    const cases: Array<[string, string]> = [
      ['openai:gpt-4.1-mini', 'openai'], ['openai:o3', 'openai'], ['openai:o4-mini', 'openai'], ['openai:o1', 'openai'],
      ['anthropic:claude-sonnet-4', 'anthropic'], ['anthropic:anything', 'anthropic'], ['openai:claude-3-haiku', 'anthropic'],
      ['openai:gemini-2.5-pro', 'google'], ['ollama:gemma2:9b', 'google'],
      ['ollama:llama3.1:8b', 'meta'], ['openai:meta-llama/Llama-3.3-70B-Instruct', 'meta'],
      ['openai:mistral-large', 'mistral'], ['ollama:mixtral:8x7b', 'mistral'], ['openai:mistralai/ministral-8b', 'mistral'],
      ['ollama:qwen2.5:7b', 'alibaba'], ['openai:deepseek-chat', 'deepseek'], ['openai:deepseek-ai/DeepSeek-R1', 'deepseek'],
      ['openai:anthropic/claude-sonnet-4', 'anthropic'], ['openai:google/gemma-3-27b-it', 'google'],
      ['baseline:gold', 'baseline'],
      // else the first token of the model name
      ['openai:tutor-1', 'tutor'], ['openai:olmo-2-13b', 'olmo'], ['ollama:phi3:mini', 'microsoft'], ['openai:phind-70b', 'phind'],
    ];
    for (const [spec, family] of cases) expect(modelFamily(spec).family, spec).toBe(family);
  });
});

describe('modelFamily: where the family came from', () => {
  it('reads the developer line from the model name, then the provider, then falls back to the name\'s first token', () => {
    expect(modelFamily('openai:gpt-4.1-mini')).toEqual({ family: 'openai', source: 'table' });
    expect(modelFamily('openai:o3-mini').family).toBe('openai');
    expect(modelFamily('openai:meta-llama/Llama-3.1-8B-Instruct').family).toBe('meta');
    expect(modelFamily('ollama:qwen2.5:7b').family).toBe('alibaba');
    expect(modelFamily('openai:deepseek-r1-distill-llama-70b').family).toBe('deepseek');
    expect(modelFamily('anthropic:claude-sonnet-4-20250514')).toEqual({ family: 'anthropic', source: 'table' });
    expect(modelFamily('anthropic:house-model')).toEqual({ family: 'anthropic', source: 'provider' });
    expect(modelFamily('baseline:script')).toEqual({ family: 'baseline', source: 'provider' });
    expect(modelFamily('openai:my-finetune')).toEqual({ family: 'my', source: 'model' });
    expect(modelFamily('openai:my-finetune', 'openai')).toEqual({ family: 'openai', source: 'config' });
  });
});

describe('familyOf (a model of a run, with --judge-family overrides by alias)', () => {
  it('takes the override for the alias, else the table', () => {
    const overrides = { tutor: 'house' };
    expect(familyOf({ alias: 'tutor', spec: 'openai:gpt-4.1' }, overrides)).toBe('house');
    expect(familyOf({ alias: 'other', spec: 'openai:gpt-4.1' }, overrides)).toBe('openai');
  });
  it('rejects a spec that is not provider:model, with the expected format', () => {
    expect(() => modelFamily('gpt-4.1')).toThrow(/expected "provider:model"/);
  });
});
