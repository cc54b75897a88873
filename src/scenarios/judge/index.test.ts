import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';
import { parseScenario } from '../load.js';
import { buildChatModel } from '../models.js';
import { runScenario } from '../run.js';
import { scenarioReport } from '../index.js';
import { LOOP_SCENARIO, loopModels, scenarioDir } from '../testing/fixtures.js';
import { JUDGE_TOOL_NAME } from './format.js';

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map(s => s.close()));
  servers = [];
});

type Body = { model: string; messages: Array<{ role: string; content: string }>; tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>; tool_choice?: unknown };
const bodyOf = (r: RecordedRequest) => r.body as Body;

/** The loop scenario with its judge(s) at a fake server; dialogue agents stay mock models. */
function judgedScenario(server: FakeServer, evaluation: (text: string) => string = t => t) {
  const text = evaluation(LOOP_SCENARIO
    .replace('judge: { type: openai, model: judge-model, api_base: http://127.0.0.1:9/v1 }', `judge: { type: openai, model: judge-model, api_base: "${server.baseURL}", api_key: "\${JUDGE_KEY}" }`)
    .replace('persona: [Ana, Ben]', 'persona: [Ana]').replace('problem: ["2x = 6", "x + 1 = 3"]', 'problem: ["2x = 6"]'));
  return parseScenario('/tmp/judged.yaml', text, { env: { JUDGE_KEY: 'sk-judge-secret-777' } });
}

async function run(scenario: ReturnType<typeof judgedScenario>, storeUrl = 'sqlite::memory:', o: { retryErrors?: boolean } = {}) {
  const store = await openStore(storeUrl);
  const mocks = loopModels({ teacherTurns: 2 });
  const result = await runScenario({
    scenario, store, ...o,
    createModel: m => (m.alias in mocks && m.alias !== 'judge' && m.alias !== 'judge_b' ? mocks[m.alias]! : buildChatModel(m, { retry: scenario.globals.retry })),
  });
  return { store, ...result };
}

describe('judging against an OpenAI-compatible server', () => {
  it('tool mode: the format becomes a forced function whose arguments are the judgment', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: null, toolCalls: [{ name: JUDGE_TOOL_NAME, arguments: '{"clarity": 4, "warmth": 5, "comment": "good"}' }] }) }));
    servers.push(server);
    const s = judgedScenario(server, t => t.replace('format_mode: prompt', 'format_mode: tool'));
    const { store, run: r } = await run(s);
    expect(server.requests).toHaveLength(1);
    const body = bodyOf(server.requests[0]!);
    expect(body.tools).toEqual([{ type: 'function', function: { name: JUDGE_TOOL_NAME, description: 'Submit the evaluation "guide" of the dialogue.', parameters: {
      type: 'object',
      properties: { clarity: { type: 'integer', minimum: 1, maximum: 5 }, warmth: { type: 'integer', minimum: 1, maximum: 5 }, comment: { type: 'string' } },
      required: ['clarity', 'warmth', 'comment'], additionalProperties: false,
    } } }]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: JUDGE_TOOL_NAME } });
    expect(body.messages.at(-1)!.content).not.toContain('<json>');
    const panel = (await store.listScores(r.id)).find(x => x.scorer.name === 'judge:guide')!;
    expect(panel.details?.fields).toEqual({ clarity: 4, warmth: 5 });
    expect(panel.value).toBeCloseTo(0.75 * 0.75 + 0.25 * 1, 12);
    await store.close();
  });

  it('prompt mode: JSON between markers, asked for in the last user message', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'Reasoning first. <json>{"clarity": 2, "warmth": 4, "comment": "terse"}</json>' }) }));
    servers.push(server);
    const { store, run: r } = await run(judgedScenario(server));
    const body = bodyOf(server.requests[0]!);
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Score the tutor. Problem: 2x = 6' });
    expect(body.messages[1]!.content).toMatch(/^user: Help me with 2x = 6\nteacher: Question 1\?\nstudent: Answer 1\nteacher: Well done! <END>\n\nAnswer with one JSON object between <json> and <\/json>/);
    const single = (await store.listJudgments(r.id)).find(j => j.rater.alias === 'judge' && j.repeat === 0)!;
    expect(single.fields).toEqual({ clarity: 2, warmth: 4, comment: 'terse' });
    expect(single.details).toMatchObject({ attempts: 1 });
    await store.close();
  });

  it('a judge that gives the same unfitting answer each time is asked again each time, its answer shown back, never answered from the cache', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'Great tutor, 5/5!' }) }));
    servers.push(server);
    const { store, run: r } = await run(judgedScenario(server));
    expect(server.requests).toHaveLength(3);
    const second = bodyOf(server.requests[1]!).messages;
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Great tutor, 5/5!' });
    expect(bodyOf(server.requests[2]!).messages.length).toBe(second.length + 2);
    const single = (await store.listJudgments(r.id)).find(j => j.rater.alias === 'judge' && j.repeat === 0)!;
    const calls = await store.listCalls(r.id, { trialIds: [single.trialId] });
    expect(calls.map(c => [c.step, c.cached])).toEqual([[0, false], [1, false], [2, false]]);
    expect(new Set(calls.map(c => c.requestHash)).size).toBe(3);
    await store.close();
  });

  it('a non-conforming answer is retried with what was wrong, then stored unscored with its raw text (never 0)', async () => {
    const server = await startOpenAICompatibleServer({ replies: [
      { body: openAIChatBody({ text: 'Great tutor, 5/5!' }) },
      { body: openAIChatBody({ text: '<json>{"clarity": 9, "warmth": 3, "comment": "x"}</json>' }) },
      { body: openAIChatBody({ text: '<json>{"clarity": "high"}</json>' }) },
    ] });
    servers.push(server);
    const { store, run: r, summary } = await run(judgedScenario(server));
    expect(server.requests).toHaveLength(3);
    expect(bodyOf(server.requests[1]!).messages.at(-1)!.content).toMatch(/did not fit the required format: no JSON object found/);
    expect(bodyOf(server.requests[2]!).messages.at(-1)!.content).toMatch(/clarity must be between 1 and 5, got 9/);
    const scores = await store.listScores(r.id);
    const single = (await store.listJudgments(r.id)).find(j => j.rater.alias === 'judge' && j.repeat === 0)!;
    expect(single.value).toBeNull();
    expect(single.reason).toMatch(/did not fit format after 3 attempt\(s\): clarity must be a number; warmth is missing; comment is missing/);
    expect(single.raw).toBe('<json>{"clarity": "high"}</json>');
    expect(single.details).toMatchObject({ unscored: true, attempts: 3 });
    // Every attempt is a stored call of the judge trial.
    expect((await store.listCalls(r.id, { trialIds: [single.trialId] })).map(c => c.step)).toEqual([0, 1, 2]);
    const panel = scores.find(x => x.scorer.name === 'judge:guide')!;
    expect(panel.value).toBeNull();
    expect(summary.judging).toMatchObject({ new: 1, unscored: 1 });
    // Why, as the run's summary and the report say it.
    const why = "the judge's answer did not fit format after 3 attempt(s): clarity must be a number; warmth is missing; comment is missing";
    expect(summary.judging?.unscoredReasons).toEqual([{ reason: why, count: 1 }]);
    const report = await scenarioReport(store, r.id);
    expect(report.judges.find(j => j.judge === 'judge')?.unscoredReasons).toEqual([{ reason: why, count: 1 }]);
    await store.close();
  });

  it('a panel with repeats keeps every individual judgment and aggregates them', async () => {
    let n = 0;
    const server = await startOpenAICompatibleServer(request => {
      const model = bodyOf(request).model;
      const clarity = model === 'judge-a' ? [5, 3][n++ % 2] : 1;
      return { body: openAIChatBody({ text: `<json>{"clarity": ${clarity}, "warmth": 5, "comment": "${model}"}</json>` }) };
    });
    servers.push(server);
    const s = judgedScenario(server, t => t
      .replace('model: judge-model', 'model: judge-a')
      .replace(/  judge: \{ type: openai, model: judge-a, (.*)\}/, (line, rest: string) => `${line}\n  judge_b: { type: openai, model: judge-b, ${rest}}`)
      .replace('  model: judge\n', '  judges: { models: [judge, judge_b], aggregation: mean }\n  repeats: 2\n'));
    const { store, run: r } = await run(s);
    expect(server.requests).toHaveLength(4);
    const scores = await store.listScores(r.id);
    expect(scores.map(x => x.scorer.name)).toEqual(['judge:guide']);
    const judgments = await store.listJudgments(r.id);
    expect(judgments.map(j => `${j.rater.alias}/${j.repeat}`).sort()).toEqual(['judge/0', 'judge/1', 'judge_b/0', 'judge_b/1']);
    const a = judgments.filter(j => j.rater.alias === 'judge').map(j => (j.fields as { clarity: number }).clarity).sort();
    expect(a).toEqual([3, 5]);
    const panel = scores.find(x => x.scorer.name === 'judge:guide')!;
    // clarity: judge = mean(5, 3) = 4, judge_b = 1 -> 2.5; warmth 5
    expect(panel.details?.fields).toEqual({ clarity: 2.5, warmth: 5 });
    expect(panel.details?.judges).toEqual({ judge: { fields: { clarity: 4, warmth: 5 }, score: 0.75 * 0.75 + 0.25 }, judge_b: { fields: { clarity: 1, warmth: 5 }, score: 0.25 } });
    expect(panel.scorer.args).toEqual({ judges: ['judge', 'judge_b'], aggregation: 'mean', repeats: 2 });
    await store.close();
  });

  it('anchors are inserted into the system prompt, or where {anchors} stands', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: '<json>{"clarity": 3, "warmth": 3, "comment": "ok"}</json>' }) }));
    servers.push(server);
    const anchors = '  anchors:\n    - task: { problem: "3x = 9" }\n      dialogue: "teacher: What is 9 divided by 3?"\n      scores: { clarity: 4, warmth: 2, comment: "clear but cold" }\n      note: "Direct but no encouragement."\n';
    const s = judgedScenario(server, t => t.replace('  format:\n', `${anchors}  format:\n`));
    await (await run(s)).store.close();
    const system = bodyOf(server.requests[0]!).messages[0]!.content;
    expect(system).toBe('Score the tutor. Problem: 2x = 6\n\nThese examples were scored by experts. Score the dialogue you are given on the same standard.\n\n### Example 1\nTask: problem = 3x = 9\nDialogue:\nteacher: What is 9 divided by 3?\nExpert scores: {"clarity":4,"warmth":2,"comment":"clear but cold"}\nExpert note: Direct but no encouragement.');
    const placed = judgedScenario(server, t => t.replace('  format:\n', `${anchors}  format:\n`).replace('content: "{messages.as_dialog()}"', 'content: "Examples: {anchors} Now: {messages.as_dialog()}"'));
    await (await run(placed)).store.close();
    const body = bodyOf(server.requests[1]!);
    expect(body.messages[0]!.content).toBe('Score the tutor. Problem: 2x = 6');
    expect(body.messages[1]!.content).toMatch(/^Examples: These examples were scored by experts[\s\S]*Now: user: Help me/);
  });

  it('a provider error is a stored failed call, asked again with --retry-errors; the key reaches the server but never the store', async () => {
    const server = await startOpenAICompatibleServer({ replies: [{ status: 400, body: { error: { message: 'bad' } } }] });
    servers.push(server);
    const dir = scenarioDir({});
    const url = `sqlite:${join(dir, 'p.db')}`;
    const s = judgedScenario(server);
    const first = await run(s, url);
    expect(first.summary.judging).toMatchObject({ new: 0, failed: 1 });
    expect((await first.store.listScores(first.run.id))).toHaveLength(0);
    expect((await first.store.listCalls(first.run.id)).filter(c => c.status === 'error').map(c => c.error?.statusCode)).toEqual([400]);
    await first.store.close();
    // A plain re-run leaves the failure as it is (never scored as wrong); --retry-errors asks again.
    const again = await run(s, url);
    expect(again.summary.judging).toMatchObject({ new: 0, failed: 1 });
    await again.store.close();
    const second = await run(s, url, { retryErrors: true });
    expect(second.summary.judging).toMatchObject({ new: 1, failed: 0 });
    await second.store.close();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-judge-secret-777');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes('sk-judge-secret-777')).toBe(false);
  });
});
