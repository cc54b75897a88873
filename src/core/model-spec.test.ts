import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { parseModelSpec } from './model-spec.js';

describe('parseModelSpec', () => {
  it('splits provider and model, keeping colons inside the model name', () => {
    expect(parseModelSpec('ollama:llama3.1:8b')).toEqual({
      alias: 'ollama:llama3.1:8b', provider: 'ollama', model: 'llama3.1:8b', spec: 'ollama:llama3.1:8b',
    });
  });
  it('takes an alias before "="', () => {
    const m = parseModelSpec('judge=openai:gpt-4.1');
    expect([m.alias, m.provider, m.model]).toEqual(['judge', 'openai', 'gpt-4.1']);
  });
  it('names the field and the expected format on a bad spec', () => {
    expect(() => parseModelSpec('gpt-4.1')).toThrow(ConfigError);
    expect(() => parseModelSpec('gpt-4.1', { field: '--model' })).toThrow(/field "--model".*expected "provider:model"/);
    expect(() => parseModelSpec('foo:bar')).toThrow(/unknown provider "foo"/);
    expect(() => parseModelSpec('openai:')).toThrow(/empty model name/);
  });
});
