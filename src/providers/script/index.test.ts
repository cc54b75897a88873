import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../core/chat-model.js';
import { ConfigError } from '../../core/errors.js';
import { callError } from '../testing/call-error.js';
import { createScriptModel, loadScriptFile } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'paideia-script-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A request after `played` scripted turns (each an assistant message from the script's side). */
function after(played: number, context?: ChatRequest['context']): ChatRequest {
  const messages: ChatMessage[] = [{ role: 'user', content: 'teacher 0' }];
  for (let i = 0; i < played; i++) messages.push({ role: 'assistant', content: `s${i}` }, { role: 'user', content: `teacher ${i + 1}` });
  return { messages, params: {}, context };
}

describe('baseline:script', () => {
  it('plays the default list by the number of assistant turns so far', async () => {
    const model = createScriptModel({ turns: { default: ['I think 4?', 'Oh, 5.', 'Thanks!'] } });
    expect((await model.generate(after(0))).text).toBe('I think 4?');
    expect((await model.generate(after(2))).text).toBe('Thanks!');
    expect(await model.generate(after(1))).toMatchObject({ text: 'Oh, 5.', usage: { inputTokens: 0, outputTokens: 0 } });
    expect(model.isBaseline).toBe(true);
  });

  it('picks the list of context.role and takes context.turn over the message count', async () => {
    const model = createScriptModel({ turns: { default: ['d0', 'd1'], byRole: { student: ['s0', 's1', 's2'] } } });
    expect((await model.generate(after(1, { role: 'student' }))).text).toBe('s1');
    expect((await model.generate(after(0, { role: 'student', turn: 2 }))).text).toBe('s2');
    expect((await model.generate(after(1, { role: 'parent' }))).text).toBe('d1');
  });

  it('fails past the end unless onEnd says otherwise', async () => {
    const error = await callError(createScriptModel({ turns: { default: ['a', 'b'] } }).generate(after(2)));
    expect(error).toMatchObject({ kind: 'empty', isRetryable: false });
    expect(error.message).toMatch(/turn 2 .* 2 turn/);
    expect((await createScriptModel({ turns: { default: ['a', 'b'], onEnd: 'repeat-last' } }).generate(after(5))).text).toBe('b');
    expect((await createScriptModel({ turns: { default: ['a', 'b'], onEnd: 'cycle' } }).generate(after(3))).text).toBe('b');
    await expect(createScriptModel({ turns: { byRole: { student: ['x'] } } }).generate(after(0, { role: 'tutor' }))).rejects.toThrow(/no turns/);
  });

  it('loads JSON (a list or the full form) and JSONL (strings or role lines)', () => {
    expect(loadScriptFile(file('a.json', '["one", "two"]'))).toEqual({ default: ['one', 'two'] });
    const full = { default: ['x'], byRole: { student: ['y'] }, onEnd: 'cycle' };
    expect(loadScriptFile(file('b.json', JSON.stringify(full)))).toEqual(full);
    expect(loadScriptFile(file('c.jsonl', '"one"\n{"role":"student","text":"s1"}\n\n{"text":"two"}\n{"role":"student","text":"s2"}\n')))
      .toEqual({ default: ['one', 'two'], byRole: { student: ['s1', 's2'] } });
  });

  it('reports bad scripts with file, line and field', () => {
    const bad = file('bad.json', JSON.stringify({ default: ['ok', 3], onEnd: 'loop' }));
    let error: unknown;
    try { loadScriptFile(bad); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map(i => i.field).sort()).toEqual(['default.1', 'onEnd']);
    const badLines = file('bad.jsonl', '"ok"\n{oops\n{"role":"s"}\n');
    try { loadScriptFile(badLines); } catch (e) { error = e; }
    expect((error as ConfigError).issues.map(i => i.line)).toEqual([2, 3]);
    expect(() => loadScriptFile(join(dir, 'missing.json'))).toThrow(/cannot read the script/);
  });
});
