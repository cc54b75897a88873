import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

describe('a drain (the first Ctrl-C, Stop in the web app)', () => {
  it('tries no call again: a call in flight that fails leaves its trial pending, nothing stored as failed, and a resume asks it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-drain-'));
    mkdirSync(join(dir, 'suite'));
    const items = readFileSync(join(ROOT, 'data/samples/english/exercises.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 2);
    writeFileSync(join(dir, 'suite/exercises.jsonl'), `${items.join('\n')}\n`);
    let failing = true;
    let arrived!: () => void;
    const first = new Promise<void>(r => { arrived = r; });
    // Each request fails after a while (an overloaded server): retryable, and retried without a drain.
    const server = await startOpenAICompatibleServer({
      reply: async () => {
        arrived();
        if (!failing) return { status: 200, body: { choices: [{ message: { role: 'assistant', content: 'x' } }] } };
        await new Promise(r => setTimeout(r, 300));
        return { status: 503, body: { error: { message: 'overloaded' } } };
      },
    });
    servers.push(server);
    const store = await openStore(`sqlite:${join(dir, 'p.db')}`);
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' };
      const config = { kind: 'suite' as const, suites: [join(dir, 'suite')], models: ['m=openai:m'], repeats: 1, concurrency: 1, maxAttempts: 5 };
      const handle = startRun(config, { store, env });
      await first;
      handle.stop();
      const outcome = await handle.done;
      // One request: the one in flight when the drain began, not tried again.
      expect(server.requests).toHaveLength(1);
      expect(outcome).toMatchObject({ status: 'stopped', done: 0, failed: 0, pending: 2 });
      expect(await store.listCalls(outcome.runId)).toHaveLength(0);
      failing = false;
      const resumed = await startRun({ ...config, resume: outcome.runId }, { store, env }).done;
      expect(resumed).toMatchObject({ status: 'completed', done: 2, failed: 0 });
      expect(server.requests).toHaveLength(3);
    } finally {
      await store.close();
    }
  }, 30_000);
});
