import type { CallRecord } from '../../../core/index.js';
import { createSqliteStore } from '../index.js';

/**
 * Child process of commit-thread.test.ts: stores calls through the commit thread, 1,000 at a time
 * (a batch takes the thread a while to write), and prints the trial id of each call whose write
 * resolved, until it is killed.
 */
const [file] = process.argv.slice(2);
const store = createSqliteStore(file!, { threadAfterWrites: 0 });
await store.init();
const call = (trialId: string): CallRecord => ({
  runId: 'run-k', trialId, step: 0, requestHash: `rq-${trialId}`, request: { messages: [{ role: 'user', content: `ask ${trialId} ${'x'.repeat(2000)}` }], params: {} },
  status: 'ok', result: { text: `answer ${trialId}`, warnings: [] }, attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: new Date().toISOString(),
});
for (let i = 0; ; i += 1000) {
  await Promise.all(Array.from({ length: 1000 }, (_, k) => {
    const id = `t${i + k}`;
    return store.saveCall(call(id)).then(() => process.stdout.write(`${id}\n`));
  }));
}
