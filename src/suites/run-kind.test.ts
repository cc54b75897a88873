import { expect, it } from 'vitest';
import type { RunEvent } from '../core/index.js';
import { openAIChatBody, openAIErrorBody, startOpenAICompatibleServer } from '../providers/testing/fake-servers.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import type { SuiteRunOutcome } from './run-kind.js';

it('counts the judges of a failed tutor trial as waiting: done, failed, pending and waiting add up to the trials planned', async () => {
  const verdict = JSON.stringify({ pass: true, reason: 'clear' });
  const server = await startOpenAICompatibleServer({
    reply: req => {
      const body = req.body as { model: string; messages: Array<{ content: string }> };
      if (body.model !== 'tutor') return { body: openAIChatBody({ text: verdict }) };
      const user = body.messages.at(-1)!.content;
      // One item's tutor call is refused for good (a 400 is not retried): its trial fails.
      if (user.includes('Joseph')) return { status: 400, body: openAIErrorBody('refused') };
      return { body: openAIChatBody({ text: JSON.stringify({ has_error: false, wrong_span: null, correction: null, corrected_sentence: 'x', explanation: 'The verb agrees.' }) }) };
    },
  });
  const store = await openStore('sqlite::memory:');
  let planned = 0;
  try {
    const handle = startRun({
      kind: 'suite', suites: ['data/samples/english/tutor_accuracy.jsonl'], models: ['openai:tutor'], repeats: 1, maxAttempts: 1,
      baseUrl: server.baseURL, judges: ['a=openai:gpt-4.1-judge', 'b=openai:llama-judge'],
    }, { store, env: { OPENAI_API_KEY: 'k' } });
    handle.on((e: RunEvent) => { if (e.type === 'planned') planned = e.trials; });
    const outcome = await handle.done as SuiteRunOutcome;
    expect(outcome.failed).toBe(1);
    // The failed trial's two judges wait for it: they run on the resume that retries it, not on a
    // plain one, so they are not pending (a pending run ends with exit 3 and a plain resume hint).
    expect(outcome.pending).toBe(0);
    expect(outcome.waiting).toBe(2);
    expect(outcome.done + outcome.failed + outcome.pending + outcome.waiting).toBe(planned);
  } finally {
    await store.close();
    await server.close();
  }
});
