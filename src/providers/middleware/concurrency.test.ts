import { describe, expect, it } from 'vitest';
import type { ChatResult } from '../../core/chat-model.js';
import { callError } from '../testing/call-error.js';
import { createMockModel } from '../testing/mock-model.js';
import { concurrencyMiddleware, wrapChatModel } from './index.js';

/** A model whose calls finish only when the test says so. */
function gated() {
  let active = 0;
  let peak = 0;
  const started: string[] = [];
  const release: Array<() => void> = [];
  const model = createMockModel(async r => {
    active++;
    peak = Math.max(peak, active);
    started.push(r.messages[0]!.content);
    await new Promise<void>(resolve => release.push(resolve));
    active--;
    return 'ok';
  });
  return { model, started, release, peak: () => peak };
}
const req = (c: string) => ({ messages: [{ role: 'user' as const, content: c }], params: {} });
const tick = () => new Promise(resolve => setTimeout(resolve, 5));

describe('concurrencyMiddleware', () => {
  it('runs at most `limit` calls at once and starts the rest in arrival order', async () => {
    const g = gated();
    const model = wrapChatModel(g.model, concurrencyMiddleware({ limit: 2 }));
    const calls: Array<Promise<ChatResult>> = ['a', 'b', 'c', 'd', 'e'].map(c => model.generate(req(c)));
    await tick();
    expect(g.started).toEqual(['a', 'b']);
    g.release.shift()!();
    await tick();
    expect(g.started).toEqual(['a', 'b', 'c']);
    while (g.release.length > 0) { g.release.shift()!(); await tick(); }
    await Promise.all(calls);
    expect(g.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(g.peak()).toBe(2);
  });

  it('keeps the limit for callers arriving after a slot was handed over', async () => {
    const g = gated();
    const model = wrapChatModel(g.model, concurrencyMiddleware({ limit: 1 }));
    const a = model.generate(req('a'));
    const b = model.generate(req('b'));
    await tick();
    g.release.shift()!();
    await tick();
    const c = model.generate(req('c'));
    await tick();
    expect(g.started).toEqual(['a', 'b']);
    g.release.shift()!();
    await tick();
    g.release.shift()!();
    await Promise.all([a, b, c]);
    expect(g.peak()).toBe(1);
  });

  it('frees the slot when a call fails', async () => {
    let n = 0;
    const model = wrapChatModel(createMockModel(() => { if (n++ === 0) throw new Error('first fails'); return 'ok'; }), concurrencyMiddleware({ limit: 1 }));
    await expect(model.generate(req('a'))).rejects.toThrow('first fails');
    await expect(model.generate(req('b'))).resolves.toMatchObject({ text: 'ok' });
  });

  it('drops an aborted waiter from the queue without taking a slot', async () => {
    const g = gated();
    const model = wrapChatModel(g.model, concurrencyMiddleware({ limit: 1 }));
    const first = model.generate(req('a'));
    const controller = new AbortController();
    const waiting = model.generate(req('b'), { signal: controller.signal });
    const third = model.generate(req('c'));
    await tick();
    controller.abort();
    expect((await callError(waiting)).kind).toBe('aborted');
    g.release.shift()!();
    await tick();
    expect(g.started).toEqual(['a', 'c']);
    g.release.shift()!();
    await Promise.all([first, third]);
  });
});
