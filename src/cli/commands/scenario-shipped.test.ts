import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';
import { loadScenario } from '../../scenarios/load.js';
import type { ScenarioReport } from '../../scenarios/report.js';
import { scenarioDir } from '../../scenarios/testing/fixtures.js';
import { scenarioReportCommand, scenarioRunCommand, type ScenarioIO } from './scenario.js';

const SCENARIOS = fileURLToPath(new URL('../../../scenarios/', import.meta.url));
const FILES = readdirSync(SCENARIOS).filter(f => f.endsWith('.yaml')).sort();
const ELMES_PLUS = ['Creativity stimulation', 'Personalisation', 'Teaching method professionalism', 'Values integration'];

function capture(env?: NodeJS.ProcessEnv): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; }, ...(env ? { env } : {}) };
  return io;
}

async function reportOf(runId: string, store: string): Promise<ScenarioReport> {
  const io = capture();
  expect(await scenarioReportCommand(runId, { store, format: 'json' }, io)).toBe(0);
  return JSON.parse(io.out) as ScenarioReport;
}

describe('the four shipped scenarios', () => {
  it('cover the four Elmes+ scenario types, each with personas x problems and a weighted four-dimension rubric', () => {
    expect(FILES).toEqual(['contextual-question-generation.yaml', 'interdisciplinary-lesson-planning.yaml', 'knowledge-explanation.yaml', 'socratic-problem-solving.yaml']);
    for (const f of FILES) {
      const s = loadScenario(join(SCENARIOS, f));
      const raw = readFileSync(join(SCENARIOS, f), 'utf8');
      expect(raw, f).toMatch(/mode: union/);
      expect(s.tasks.length, f).toBeGreaterThanOrEqual(12);
      expect(new Set(s.evaluation!.scored.map(x => x.dimension)), f).toEqual(new Set(ELMES_PLUS));
      const byDim = (d: string) => s.evaluation!.scored.filter(x => x.dimension === d).reduce((t, x) => t + x.weight, 0);
      // The Elmes+ seed weights: personalisation 0.3, method 0.4, creativity 0.2, values 0.1.
      expect([byDim('Personalisation'), byDim('Teaching method professionalism'), byDim('Creativity stimulation'), byDim('Values integration')].map(x => Number(x.toFixed(6))), f).toEqual([0.3, 0.4, 0.2, 0.1]);
      expect(s.warnings, f).toEqual([]);
    }
    const socratic = loadScenario(join(SCENARIOS, 'socratic-problem-solving.yaml'));
    expect(socratic.agents.size).toBe(2);
    expect(socratic.evaluation!.judges).toHaveLength(2);
  });

  it('run end to end with their scripted models: stored dialogues, judge scores and the report', async () => {
    const store = `sqlite:${join(scenarioDir({}), 'scripted.db')}`;
    for (const f of FILES) {
      const io = capture();
      const { runId, exitCode } = await scenarioRunCommand(join(SCENARIOS, f), { store, judge: true }, io);
      expect(exitCode, `${f}: ${io.err}`).toBe(0);
      const s = loadScenario(join(SCENARIOS, f));
      expect(io.err).toContain(`${s.tasks.length} ended, 0 capped, 0 failed, 0 pending`);
      const report = await reportOf(runId!, store);
      expect(report.models).toHaveLength(1);
      const [m] = report.models;
      expect(m!.isBaseline).toBe(true);
      expect(m!.score.n).toBe(s.tasks.length);
      expect(m!.score.mean).toBeGreaterThan(0);
      expect(Object.keys(m!.dimensions).sort()).toEqual(ELMES_PLUS);
      expect(report.radar.axes.sort()).toEqual(ELMES_PLUS);
      // Running it again finds everything stored.
      const again = capture();
      expect((await scenarioRunCommand(join(SCENARIOS, f), { store, judge: true }, again)).runId).toBe(runId);
      expect(again.err).toMatch(/judgments: 0 new/);
    }
  });
});

describe('the shipped scenarios against a local OpenAI-compatible server', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server?.close();
  });

  it('every model overridden with openai:<name> runs, is judged (tool and prompt modes) and reported; the key stays out of the store', async () => {
    server = await startOpenAICompatibleServer(fakeTeachingServer);
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    vi.stubEnv('OPENAI_API_KEY', 'sk-shipped-secret-31337');
    const dir = scenarioDir({});
    const store = `sqlite:${join(dir, 'live.db')}`;
    for (const f of FILES) {
      const s = loadScenario(join(SCENARIOS, f));
      const model = [...s.models.keys()].map(alias => `${alias}=openai:${alias}-model`);
      const io = capture();
      const { runId, exitCode } = await scenarioRunCommand(join(SCENARIOS, f), { store, judge: true, model }, io);
      expect(exitCode, `${f}: ${io.err}`).toBe(0);
      const report = await reportOf(runId!, store);
      expect(report.models[0]).toMatchObject({ isBaseline: false, spec: `openai:${s.agents.get(s.target)!.model}-model`, unscored: 0 });
      expect(report.models[0]!.score.n).toBe(s.tasks.length);
      // The fake judge gives every field its maximum.
      expect(report.models[0]!.score.mean).toBeCloseTo(1, 9);
      expect(io.err + io.out).not.toContain('sk-shipped-secret-31337');
    }
    expect(server.requests.every(r => r.headers.authorization === 'Bearer sk-shipped-secret-31337')).toBe(true);
    const toolCalls = server.requests.filter(r => (r.body as { tools?: unknown }).tools !== undefined);
    expect(toolCalls.length).toBeGreaterThan(0);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes('sk-shipped-secret-31337')).toBe(false);
  });
});

/**
 * Plays every role: judges answer with each field at its maximum (as a tool call or as marked
 * JSON, whichever was asked); a Socratic teacher ends on its second turn; everyone else talks.
 */
function fakeTeachingServer(request: RecordedRequest) {
  const body = request.body as { tools?: Array<{ function: { name: string; parameters: Schema } }>; messages: Array<{ role: string; content: string }> };
  const tool = body.tools?.[0];
  if (tool) return { body: openAIChatBody({ text: null, toolCalls: [{ name: tool.function.name, arguments: JSON.stringify(maximal(tool.function.parameters)) }] }) };
  const last = body.messages.at(-1)!.content;
  const marker = 'must match this JSON Schema:\n';
  if (last.includes(marker)) {
    const schema = JSON.parse(last.slice(last.indexOf(marker) + marker.length).split('\n')[0]!) as Schema;
    return { body: openAIChatBody({ text: `Checked. <json>${JSON.stringify(maximal(schema))}</json>` }) };
  }
  const ownTurns = body.messages.filter(m => m.role === 'assistant').length;
  return { body: openAIChatBody({ text: ownTurns >= 1 ? 'You reasoned it out and checked it. <end>' : 'What does the question ask you to find?' }) };
}

interface Schema { type: string; properties?: Record<string, Schema>; maximum?: number; minimum?: number }
function maximal(schema: Schema): unknown {
  switch (schema.type) {
    case 'object': return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, maximal(v)]));
    case 'integer':
    case 'number': return schema.maximum ?? schema.minimum ?? 1;
    case 'boolean': return true;
    default: return 'fine';
  }
}
