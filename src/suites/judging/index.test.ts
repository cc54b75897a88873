import { describe, expect, it } from 'vitest';
import { ConfigError, parseModelSpec } from '../../core/index.js';
import { judgingConfig, parseVerdict } from './index.js';

describe('judgingConfig', () => {
  it('takes exactly two judges of different families', () => {
    const c = judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4']);
    expect(c.judges).toEqual([{ alias: 'a', spec: 'openai:gpt-4.1', family: 'openai' }, { alias: 'b', spec: 'anthropic:claude-sonnet-4', family: 'anthropic' }]);
    expect([c.formatRetries, c.maxAttempts, c.rubric]).toEqual([2, 3, 'explanation-rubric.v1']);
    expect(() => judgingConfig(['a=openai:gpt-4.1'])).toThrow(/exactly two judges/);
    expect(() => judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4', 'c=ollama:llama3'])).toThrow(ConfigError);
    expect(() => judgingConfig(['a=openai:gpt-4.1', 'b=openai:o3'])).toThrow(/both judges are of the family "openai"/);
    expect(() => judgingConfig(['a=openai:gpt-4.1', 'a=anthropic:claude-sonnet-4'])).toThrow(/used twice/);
    expect(() => judgingConfig(['a=baseline:gold', 'b=anthropic:claude-sonnet-4'])).toThrow(/cannot judge/);
    expect(() => judgingConfig(['a=gpt-4.1', 'b=anthropic:claude-sonnet-4'])).toThrow(/field "--judge".*expected "provider:model"/);
  });
  it('lets --judge-family correct the table for judges and models', () => {
    expect(() => judgingConfig(['a=openai:judge-x', 'b=openai:judge-y'])).toThrow(/family "judge"/);
    const c = judgingConfig(['a=openai:judge-x', 'b=openai:judge-y'], ['a=openai', 'b=anthropic']);
    expect(c.judges.map(j => j.family)).toEqual(['openai', 'anthropic']);
    const m = [parseModelSpec('tutor=openai:my-tune')];
    expect(judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4'], ['tutor=openai'], m).familyOverrides).toEqual({ tutor: 'openai' });
    expect(() => judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4'], ['nobody=openai'], m)).toThrow(/no judge or model has the alias "nobody"/);
    expect(() => judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4'], ['a'])).toThrow(/expected alias=family/);
    expect(() => judgingConfig(['tutor=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4'], [], m)).toThrow(/also a model's alias/);
  });
});

describe('parseVerdict', () => {
  it('reads {pass, reason} in or out of a code fence, and says what is wrong otherwise', () => {
    expect(parseVerdict('{"pass": true, "reason": "clear"}')).toEqual({ ok: true, verdict: { pass: true, reason: 'clear' } });
    expect(parseVerdict('Verdict:\n```json\n{"pass": false, "reason": "wrong rule"}\n```')).toEqual({ ok: true, verdict: { pass: false, reason: 'wrong rule' } });
    expect(parseVerdict('PASS')).toMatchObject({ ok: false, problem: 'no JSON object in the answer' });
    expect(parseVerdict('{"pass": "yes", "reason": "x"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^pass:/) });
  });
});
