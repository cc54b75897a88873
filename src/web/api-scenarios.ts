import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { Hono } from 'hono';
import { ConfigError, formatLocation, type Env } from '../core/index.js';
import { parseScenario } from '../scenarios/index.js';
import type { LaunchFolders } from './launch-choices.js';

/** One problem of a scenario text, as `paideia scenario validate` prints it, with its line for the editor. */
export interface EditorIssue {
  line: number | null;
  field: string | null;
  message: string;
  /** The line `scenario validate` prints for it. */
  text: string;
}

/** Check a scenario's text exactly as `paideia scenario validate` checks the file. */
/** What the editor's form view shows of a valid scenario: models, agents, tasks and the rubric. */
export interface ScenarioOutline {
  models: Array<{ alias: string; spec: string }>;
  agents: Array<{ name: string; model: string }>;
  tasks: number;
  rubric: Array<{ field: string; dimension: string; type: string; min: number; max: number; weight: number }>;
}

export interface ScenarioCheck {
  issues: EditorIssue[];
  warnings: string[];
  /** Edges of the dialogue flow, START first. */
  graph: Array<[string, string]>;
  outline: ScenarioOutline | null;
}

export function validateScenarioText(file: string, text: string, env: Env): ScenarioCheck {
  try {
    const scenario = parseScenario(file, text, { env });
    const graph: Array<[string, string]> = [['START', scenario.graph.first]];
    for (const [from, edge] of scenario.graph.edges) {
      for (const to of edge.kind === 'node' ? [edge.to] : edge.router.targets.map(t => t.name)) graph.push([from, to]);
    }
    const outline: ScenarioOutline = {
      models: [...scenario.models.values()].map(m => ({ alias: m.alias, spec: m.spec.spec })),
      agents: [...scenario.agents.values()].map(a => ({ name: a.name, model: a.model })),
      tasks: scenario.tasks.length,
      rubric: (scenario.evaluation?.scored ?? []).map(f => ({ field: f.field, dimension: f.dimension, type: f.type, min: f.scale.min, max: f.scale.max, weight: f.weight })),
    };
    return { issues: [], warnings: scenario.warnings, graph, outline };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      issues: error.issues.map(i => ({ line: i.line ?? null, field: i.field ?? null, message: i.message, text: formatLocation(i) ? `${formatLocation(i)}: ${i.message}` : i.message })),
      warnings: [], graph: [], outline: null,
    };
  }
}

/** The scenario editor's API: open a scenario file, check a text as it is typed, save a new version. */
export function scenariosApi(env: Env, folders: LaunchFolders): Hono {
  const api = new Hono();
  const home = resolve(folders.base, folders.scenarios[0] ?? 'scenarios');
  // Only files directly in a scenario folder, by their name: no path from the browser is opened.
  const fileOf = (name: string) => {
    if (name !== basename(name) || !/^[\w.-]+\.ya?ml$/.test(name)) throw new ConfigError([{ field: 'name', message: `"${name}" is not a scenario file name (letters, digits, - _ . ending in .yaml)` }]);
    return join(home, name);
  };

  api.get('/scenarios', c => c.json({ names: existsSync(home) ? readdirSync(home).filter(f => /^[\w.-]+\.ya?ml$/.test(f)).sort() : [] }));

  api.get('/scenarios/:name', c => {
    const file = fileOf(c.req.param('name'));
    if (!existsSync(file)) return c.json({ error: `no scenario ${c.req.param('name')}` }, 404);
    return c.json({ name: c.req.param('name'), text: readFileSync(file, 'utf8') });
  });

  api.post('/scenarios/validate', async c => {
    const body = await c.req.json<{ name?: string; text?: string }>();
    return c.json(validateScenarioText(fileOf(body.name ?? 'scenario.yaml'), body.text ?? '', env));
  });

  api.post('/scenarios/:name', async c => {
    const file = fileOf(c.req.param('name'));
    const body = await c.req.json<{ text?: string }>();
    const text = body.text ?? '';
    const checked = validateScenarioText(file, text, env);
    if (checked.issues.length) return c.json({ saved: false, ...checked }, 400);
    // The file keeps its name; the version before it is kept beside it, numbered.
    mkdirSync(home, { recursive: true });
    if (existsSync(file)) writeFileSync(`${file}.v${Date.now()}`, readFileSync(file));
    writeFileSync(file, text);
    return c.json({ saved: true, path: relative(folders.base, file).startsWith('..') ? file : relative(folders.base, file), ...checked });
  });
  return api;
}
