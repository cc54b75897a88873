import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatModel } from '../src/core/index.js';
import { runSuite } from '../src/suites/run.js';
import { openStore } from '../src/store/index.js';
import { BUILT_IN_TESTS } from '../src/suites/tests/index.js';
import { builtInScorers } from '../src/scoring/builtins.js';

/**
 * Child process of spine.bench: `instant <trials> [db]` runs that many trials against an in-process
 * instant model (into `db` when given, kept for the next two); `report <db>` builds and renders the
 * JSON report of that run; `rescore <db>` rescores it; `http <requests> <baseURL> <concurrency>`
 * runs against a local server; `scenario <dialogues> <baseURL> <concurrency>` runs teacher/student
 * dialogues of 4 turns against it (`done` counts the turns); `cli <trials>` times `paideia run` of
 * the same items with baseline:gold, the whole process (`done`: the n of its summary); `items <n>
 * <path>` writes the item file the others run. Prints JSON.
 */
const [mode, countArg, baseURL, concurrencyArg] = process.argv.slice(2);
if (mode === 'items') {
  writeItems(baseURL!, Number(countArg));
  process.exit(0);
}
if (mode === 'report' || mode === 'rescore') {
  const store = await openStore(`sqlite:${countArg}`);
  const runId = (await store.listRuns())[0]!.id;
  const t0 = performance.now();
  let n = 0;
  if (mode === 'report') {
    const { buildReportData, renderReport } = await import('../src/report/index.js');
    n = renderReport(await buildReportData(store, runId, { tests: BUILT_IN_TESTS, resamples: 200 }), 'json').length;
  } else {
    const { rescoreSuite } = await import('../src/suites/rescore.js');
    n = (await rescoreSuite(store, runId, BUILT_IN_TESTS, builtInScorers())).scored;
  }
  // Closing is part of the job: a rescore's last checkpoint runs there.
  await store.close();
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(JSON.stringify({ seconds, callSeconds: seconds, done: n, failed: 0, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}
if (mode === 'scenario') {
  // Teacher and student take turns until the recursion limit (the server never says <end>): 4 turns a dialogue.
  const { parseScenario } = await import('../src/scenarios/load.js');
  const { runScenario } = await import('../src/scenarios/run.js');
  const dialogues = Number(countArg);
  const problems = Array.from({ length: Math.ceil(dialogues / 8) }, (_, i) => `"${i}x = ${2 * i}"`);
  const yaml = `name: bench_turns
globals:
  concurrency: ${Number(concurrencyArg ?? 64)}
  recursion_limit: 4
  retry: { attempt: 1, interval: 0 }
models:
  tutor: { type: openai, model: slow, api_base: ${baseURL} }
  learner: { type: openai, model: slow, api_base: ${baseURL} }
agents:
  teacher: { model: tutor, prompt: [{ role: system, content: "You teach {persona}; the problem is {problem}." }], memory: { enable: true, keep_turns: 4 } }
  student: { model: learner, prompt: [{ role: system, content: "Answer as {persona} would." }], memory: { enable: false } }
directions: [START -> teacher, 'teacher -> router:any_keyword_route(keywords=["<end>"], exists_to=END, else_to="student")', student -> teacher]
tasks:
  mode: union
  start_prompt: "Help me with {problem}"
  content:
    persona: [Ana, Ben, Cai, Dee, Eva, Fin, Gus, Hal]
    problem: [${problems.join(', ')}]
`;
  const store = await openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-bench-')), 'bench.db')}`);
  const scenario = parseScenario(join(tmpdir(), 'bench-turns.yaml'), yaml, { env: {} });
  let callsStarted = 0;
  const started = performance.now();
  const { run } = await runScenario({ scenario, store, judge: false, env: {}, onEvent: e => { if (e.type === 'start') callsStarted = performance.now(); } });
  const ended = performance.now();
  const turns = (await store.listCalls(run.id)).filter(c => c.status === 'ok').length;
  await store.close();
  process.stdout.write(JSON.stringify({ seconds: (ended - started) / 1000, callSeconds: (ended - callsStarted) / 1000, done: turns, failed: 0, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}
const count = Number(countArg);
const dir = mkdtempSync(join(tmpdir(), 'paideia-bench-'));
const file = join(dir, 'items.jsonl');
// Written by a process of its own: 200,000 lines held here, even briefly, would set V8's heap
// limit for the whole run (its next full collection comes only when the heap reaches ~4x what
// was live then), and the peak would be the bench's, not the run's.
const written = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'items', String(count), file], { encoding: 'utf8' });
if (written.status !== 0) throw new Error(`writing the bench items failed: ${written.stderr}`);
if (mode === 'cli') {
  // The same items through the command a user types, timed whole: start-up, plan, run, the
  // summary it prints, closing the store.
  const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'run', file, '-m', 'baseline:gold', '--repeats', '1', '--no-cache', '--store', `sqlite:${join(dir, 'cli.db')}`], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`paideia run failed (${r.status}): ${r.stderr}`);
  const n = /\b(\d+)\s+\$0\.0000/.exec(r.stderr)?.[1];
  process.stdout.write(JSON.stringify({ seconds, callSeconds: seconds, done: Number(n ?? 0), failed: 0, maxRssMB: 0 }));
  process.exit(0);
}

const instant: ChatModel = {
  specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'instant', isBaseline: false,
  async generate(request) {
    return { text: request.hints?.gold ?? '', warnings: [], usage: { inputTokens: 20, outputTokens: 2 } };
  },
};

const store = await openStore(`sqlite:${mode === 'instant' && baseURL ? baseURL : join(dir, 'bench.db')}`);
const started = performance.now();
// CPU of this process (every thread) over the same span: the wall time of a 2-core machine shared
// with other work drifts by 2x over an hour; the CPU a run takes drifts far less.
const cpuStarted = process.cpuUsage();
let callsStarted = 0;
let createModel: (spec: { alias: string }) => ChatModel = () => instant;
if (mode === 'http') {
  const { createOpenAICompatibleModel } = await import('../src/providers/index.js');
  const remote = createOpenAICompatibleModel({ model: 'slow', baseURL: baseURL!, apiKey: 'bench' });
  createModel = () => remote;
}
const { summary } = await runSuite({
  store, suites: [file], models: [{ alias: 'm', provider: 'openai', model: 'instant', spec: 'openai:instant' }],
  repeats: 1, seed: 1, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel,
  prices: { source: 'bench', date: '2026-11-29', models: {} }, useCache: false,
  concurrency: () => Number(concurrencyArg ?? 8),
  onEvent: e => {
    if (e.type === 'start') callsStarted = performance.now();
  },
});
const ended = performance.now();
// The calling phase alone: from the first trial started to the last one stored.
const callSeconds = (ended - callsStarted) / 1000;
// The run's wall time includes closing the store: a run whose WAL never reached the autocheckpoint
// (20,000 trials) does its whole checkpoint there, one that did (200,000) did it while calling, so
// leaving the close out flattered the smaller run in the linearity figure.
await store.close();
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
process.stdout.write(JSON.stringify({ seconds, callSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, done: summary.done, failed: summary.failed, maxRssMB: process.resourceUsage().maxRSS / 1024 }));

/** The bench's item file (mode `items`, in a process of its own). */
function writeItems(path: string, n: number): void {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({
      id: `bench-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
      accepted: [i % 3 ? `focail${i}` : `fhocail${i}`], source: { dataset: 'bench', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
      visibility: 'private', contamination: 'private', human_checked: false, topic: `t${i % 7}`,
    }));
  }
  writeFileSync(path, lines.join('\n'));
}
