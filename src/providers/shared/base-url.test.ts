import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/testing/run-cli.js';
import { createChatModel } from '../create-chat-model.js';
import { parseModelSpec } from '../../core/index.js';
import { LOOP_SCENARIO } from '../../scenarios/testing/fixtures.js';
import { baseUrlProblem } from './base-url.js';

const suite = new URL('../../cli/__fixtures__/mini-suite.jsonl', import.meta.url).pathname;

describe('base URLs', () => {
  it('only http(s) URLs can be called; a missing scheme says how to write it', () => {
    expect(baseUrlProblem('http://127.0.0.1:8787/v1')).toBeUndefined();
    expect(baseUrlProblem('https://openrouter.ai/api/v1')).toBeUndefined();
    expect(baseUrlProblem('localhost:8787')).toBe('"localhost:8787" is not an http(s) URL; write the scheme, e.g. http://localhost:8787');
    expect(baseUrlProblem('ftp://h/v1')).toMatch(/not an http\(s\) URL; write the scheme, e.g. http:\/\/h\/v1/);
    expect(baseUrlProblem('127.0.0.1:8080')).toBe('"127.0.0.1:8080" is not a URL; write the scheme, e.g. http://127.0.0.1:8080');
    expect(baseUrlProblem('api.example.org/v1')).toBe('"api.example.org/v1" is not a URL; write the scheme, e.g. http://api.example.org/v1');
    // A scheme written wrong is not a host: no "http://http//..." suggestion.
    expect(baseUrlProblem('http//127.0.0.1:8080/v1')).toBe('"http//127.0.0.1:8080/v1" is not a URL; expected e.g. http://127.0.0.1:8080/v1');
    expect(baseUrlProblem('not a url')).toBe('"not a url" is not a URL; expected e.g. http://127.0.0.1:8080/v1');
  });

  it('createChatModel names where the bad URL came from', () => {
    const env = { OPENAI_BASE_URL: 'localhost:1', OLLAMA_BASE_URL: 'localhost:2', ANTHROPIC_BASE_URL: 'localhost:3' };
    expect(() => createChatModel(parseModelSpec('openai:m'), { env, baseURL: 'localhost:0' })).toThrow(/field "--base-url".*localhost:0/);
    expect(() => createChatModel(parseModelSpec('openai:m'), { env })).toThrow(/field "OPENAI_BASE_URL".*localhost:1/);
    expect(() => createChatModel(parseModelSpec('ollama:m'), { env })).toThrow(/field "OLLAMA_BASE_URL".*localhost:2/);
    expect(() => createChatModel(parseModelSpec('anthropic:m'), { env, apiKey: 'k' })).toThrow(/field "ANTHROPIC_BASE_URL".*localhost:3/);
  });

  it('paideia run exits 2 at once on --base-url or OPENAI_BASE_URL without a scheme', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-url-'));
    for (const [args, env, field] of [[['--base-url', 'localhost:8787'], {}, '--base-url'], [[], { OPENAI_BASE_URL: 'localhost:8787' }, 'OPENAI_BASE_URL']] as const) {
      const started = Date.now();
      const r = await runCli(['run', suite, '-m', 'openai:m', ...args], { cwd, env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`field "${field}": "localhost:8787" is not an http(s) URL`);
      expect(r.stderr).not.toMatch(/retry|attempt/i);
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  });

  it('paideia scenario validate exits 2 on an api_base without a scheme, naming file, line and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-url-'));
    const file = join(dir, 's.yaml');
    writeFileSync(file, LOOP_SCENARIO.replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', 'tutor: { type: openai, model: tutor-model, api_base: localhost:9999 }'));
    const r = await runCli(['scenario', 'validate', file], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/s\.yaml:\d+.*models\.tutor\.api_base.*"localhost:9999" is not an http\(s\) URL/);
  });
});
