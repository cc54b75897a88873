import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
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

/** A scenario the editor lists: by file name, and whether it is one Paideia ships (saving it writes a copy into the working folder). */
export interface EditorScenario {
  name: string;
  shipped: boolean;
}

const SCENARIO_FILE = /^[\w.-]+\.ya?ml$/;

/**
 * The scenario editor's API: open a scenario file, check a text as it is typed, save a new version.
 * It edits the first scenario folder (the working folder's); the others (the scenarios Paideia
 * ships) are offered to open, and saving one writes it into the first, where the launch page finds
 * it beside the original.
 */
export function scenariosApi(env: Env, folders: LaunchFolders): Hono {
  const api = new Hono();
  const [home = resolve(folders.base, 'scenarios'), ...others] = folders.scenarios.map(dir => resolve(folders.base, dir));
  const namesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter(f => SCENARIO_FILE.test(f)) : []);
  // Only files directly in a scenario folder, by their name: no path from the browser is opened.
  const checkedName = (name: string) => {
    if (name !== basename(name) || !SCENARIO_FILE.test(name)) throw new ConfigError([{ field: 'name', message: `"${name}" is not a scenario file name (letters, digits, - _ . ending in .yaml)` }]);
    return name;
  };
  const fileOf = (name: string) => join(home, checkedName(name));
  // The working folder's file of that name, else the first other folder's.
  const openable = (name: string) => [home, ...others].map(dir => join(dir, checkedName(name))).find(f => existsSync(f));

  api.get('/scenarios', c => {
    const own = new Set(namesIn(home));
    const shipped = [...new Set(others.flatMap(namesIn))].filter(n => !own.has(n));
    const scenarios: EditorScenario[] = [...[...own].map(name => ({ name, shipped: false })), ...shipped.map(name => ({ name, shipped: true }))]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return c.json({ names: scenarios.map(s => s.name), scenarios, folder: shown(home) });
  });

  api.get('/scenarios/:name', c => {
    const file = openable(c.req.param('name'));
    if (!file) return c.json({ error: `no scenario ${c.req.param('name')}` }, 404);
    return c.json({ name: c.req.param('name'), text: readFileSync(file, 'utf8'), shipped: file !== fileOf(c.req.param('name')), folder: shown(home) });
  });

  // Checked where the file is: a shipped scenario's scripts and task files are beside it until it is saved.
  api.post('/scenarios/validate', async c => {
    const body = await c.req.json<{ name?: string; text?: string }>();
    const name = body.name ?? 'scenario.yaml';
    return c.json(validateScenarioText(openable(name) ?? fileOf(name), body.text ?? '', env));
  });

  api.post('/scenarios/:name', async c => {
    const file = fileOf(c.req.param('name'));
    const from = openable(c.req.param('name'));
    const body = await c.req.json<{ text?: string }>();
    const text = body.text ?? '';
    const checked = validateScenarioText(from ?? file, text, env);
    if (checked.issues.length) return c.json({ saved: false, ...checked }, 400);
    // The file keeps its name; the version before it is kept beside it, numbered.
    mkdirSync(home, { recursive: true });
    // A shipped scenario's first save: the files it names relative to itself come along, or the copy would not load.
    if (from && from !== file) copyReferencedFiles(text, dirname(from), home);
    if (existsSync(file)) writeFileSync(`${file}.v${Date.now()}`, readFileSync(file));
    writeFileSync(file, text);
    return c.json({ saved: true, path: shown(file), ...checked });
  });
  return api;

  /** A path as the page shows it and the launch API takes it: relative to the working folder when inside it. */
  function shown(path: string): string {
    return relative(folders.base, path).startsWith('..') ? path : relative(folders.base, path);
  }
}

/**
 * Copy the files a scenario names relative to its folder (its models' scripts, its task file) from
 * `fromDir` into `toDir`, each to the same relative path, unless one is there already. Paths that
 * are absolute or lead out of the folder are left alone: they resolve the same from either place,
 * or not at all.
 */
function copyReferencedFiles(text: string, fromDir: string, toDir: string): void {
  const doc = parseYaml(text) as { models?: Record<string, { script?: unknown } | null>; tasks?: { file?: unknown } | null } | null;
  const named = [...Object.values(doc?.models ?? {}).map(m => m?.script), doc?.tasks?.file].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  for (const path of new Set(named)) {
    const source = resolve(fromDir, path);
    const target = resolve(toDir, path);
    if (!target.startsWith(toDir + sep) || !source.startsWith(fromDir + sep) || !existsSync(source) || existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
}
