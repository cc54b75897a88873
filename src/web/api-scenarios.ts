import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { Hono } from 'hono';
import { ConfigError, formatLocation, type Env } from '../core/index.js';
import { parseScenario, type FileAt } from '../scenarios/index.js';
import type { LaunchFolders } from './launch-choices.js';
import { readableIn } from './launch-paths.js';

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

export function validateScenarioText(file: string, text: string, env: Env, fileAt?: FileAt): ScenarioCheck {
  try {
    const scenario = parseScenario(file, text, { env, ...(fileAt ? { fileAt } : {}) });
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

// Any plain file name (spaces and accents too, as the launch page lists them), never a path.
const SCENARIO_FILE = /^[^/\\\0]+\.ya?ml$/;
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
/** Whether a path lies in a folder once links are followed: a link in a scenario folder to a file elsewhere is not in it. */
const staysIn = (dir: string, path: string) => {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  const [at, root] = [real(path), real(dir)];
  return at === root || at.startsWith(root + sep);
};

/**
 * The scenario editor's API: open a scenario file, check a text as it is typed, save a new version.
 * It edits the first scenario folder (the working folder's); the others (the scenarios Paideia
 * ships) are offered to open, and saving one writes it into the first, where the launch page finds
 * it beside the original.
 */
export function scenariosApi(env: Env, folders: LaunchFolders): Hono {
  const api = new Hono();
  const [home = resolve(folders.base, 'scenarios'), ...others] = folders.scenarios.map(dir => resolve(folders.base, dir));
  const namesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter(f => SCENARIO_FILE.test(f) && isFile(join(dir, f)) && staysIn(dir, join(dir, f))) : []);
  // Only files directly in a scenario folder, by their name: no path from the browser is opened.
  const checkedName = (name: string) => {
    if (name !== basename(name) || !SCENARIO_FILE.test(name)) throw new ConfigError([{ field: 'name', message: `"${name}" is not a scenario file name (a name ending in .yaml or .yml, without a folder)` }]);
    return name;
  };
  const fileOf = (name: string) => join(home, checkedName(name));
  // A file the scenario names is read only inside the folders the server offers.
  const readable = readableIn(folders);
  // The working folder's file of that name, else the first other folder's.
  const openable = (name: string) => [home, ...others].map(dir => join(dir, checkedName(name))).find(f => isFile(f) && staysIn(dirname(f), f));

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

  // Checked as it will be saved: in the working folder, the files a shipped scenario names that the
  // copy takes along read from the package. The parser says which files it names (each read
  // through fileAt), so the save copies exactly those, and warns where the working folder's differ.
  const check = (name: string, text: string) => {
    const from = copyFrom(name);
    const named: string[] = [];
    const checked = validateScenarioText(fileOf(name), text, env, path => {
      named.push(path);
      const at = from ? fromHomeOr(from, path) : resolve(home, path);
      const why = readable(at);
      return why ? { refused: why } : at;
    });
    if (from) {
      for (const path of new Set(named)) {
        const own = resolve(home, path);
        const theirs = resolve(from, path);
        if (isFile(own) && isFile(theirs) && !readFileSync(own).equals(readFileSync(theirs))) {
          checked.warnings.push(`${shown(own)} is your working folder's, not the file shipped with this scenario: the saved copy reads yours`);
        }
      }
    }
    return { checked, from, named };
  };
  // The folder of the shipped scenario a save of `name` copies, while the working folder has none of that name.
  const copyFrom = (name: string) => {
    const file = openable(name);
    return file && file !== fileOf(name) ? dirname(file) : undefined;
  };
  // A path the scenario names, read in the working folder, or else from the shipped one's folder
  // when the save takes it along (shippedFileOf).
  const fromHomeOr = (shippedDir: string, path: string) => {
    const own = resolve(home, path);
    return existsSync(own) ? own : shippedFileOf(shippedDir, home, path) ?? own;
  };

  api.post('/scenarios/validate', async c => {
    const body = await c.req.json<{ name?: unknown; text?: unknown }>();
    return c.json(check(typeof body.name === 'string' ? body.name : 'scenario.yaml', textOf(body)).checked);
  });

  api.post('/scenarios/:name', async c => {
    const name = c.req.param('name');
    const file = fileOf(name);
    const text = textOf(await c.req.json<{ text?: unknown }>());
    // A link, even one to nothing yet (existsSync follows it), is not written through: the editor
    // writes only in its folder, and through a link to another scenario of it that file would change.
    const link = lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    if (link && !(existsSync(file) && staysIn(home, file))) throw new ConfigError([{ field: 'name', message: `${shown(file)} is a link to a file outside ${shown(home)} or to nothing; the editor writes only there: save under another name` }]);
    if (link) throw new ConfigError([{ field: 'name', message: `${shown(file)} is a link to ${shown(realpathSync(file))}; open that file to edit it, or save under another name` }]);
    if (existsSync(file) && !isFile(file)) throw new ConfigError([{ field: 'name', message: `${shown(file)} is a folder, not a scenario file; save under another name` }]);
    const { checked, from, named } = check(name, text);
    if (checked.issues.length) return c.json({ saved: false, ...checked }, 400);
    mkdirSync(home, { recursive: true });
    // A shipped scenario's first save: the files it names relative to itself come along, or the copy would not load.
    if (from) copyShippedFiles(named, from, home, shown);
    // The file keeps its name; the version before it is kept beside it, numbered (none for a first save or the same text).
    const before = existsSync(file) ? readFileSync(file) : undefined;
    let kept: string | null = null;
    // The same text is not written again: the file stays as a run launched from it saw it.
    const same = before?.equals(Buffer.from(text)) === true;
    if (before && !same) writeFileSync((kept = `${file}.v${Date.now()}`), before);
    if (!same) writeFileSync(file, text);
    return c.json({ saved: true, path: shown(file), kept: kept && shown(kept), ...checked });
  });
  return api;

  /** A path as the page shows it and the launch API takes it: relative to the working folder when inside it. */
  function shown(path: string): string {
    return relative(folders.base, path).startsWith('..') ? path : relative(folders.base, path);
  }
}

/**
 * The file a shipped scenario in `shippedDir` names by `path`, when a copy saved into `home` takes
 * it along: it exists, lies inside the shipped folder, would land inside `home`, and `home` has no
 * file there yet (the user's own wins, and is what the copy is checked with).
 */
function shippedFileOf(shippedDir: string, home: string, path: string): string | undefined {
  const source = resolve(shippedDir, path);
  const target = resolve(home, path);
  const inside = (dir: string, p: string) => p.startsWith(dir + sep);
  return inside(shippedDir, source) && inside(home, target) && isFile(source) && !existsSync(target) ? source : undefined;
}

/**
 * Copy the files a shipped scenario names relative to its folder (`named`: its models' scripts,
 * its task file, as the parser read them) into `home`, each to the same relative path: those
 * shippedFileOf says come along, the ones the save was checked with.
 */
function copyShippedFiles(named: ReadonlyArray<string>, shippedDir: string, home: string, shown: (path: string) => string): void {
  for (const path of new Set(named)) {
    const source = shippedFileOf(shippedDir, home, path);
    if (!source) continue;
    const target = resolve(home, path);
    try {
      mkdirSync(dirname(target), { recursive: true });
      if (!staysIn(home, dirname(target))) {
        throw new ConfigError([{ field: 'name', message: `${shown(dirname(target))} leads outside ${shown(home)} (a link); the editor writes only there: replace the link with a folder, then save again` }]);
      }
      copyFileSync(source, target);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      // A file where the copy needs a folder (scenarios/scripts as a file, say): the user's to move.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
      throw new ConfigError([{ field: 'name', message: `${shown(target)} cannot be written beside the copy: a file stands where its folder ${shown(dirname(target))} should be; move that file, then save again` }]);
    }
  }
}

/** The scenario text of a request body: a string, or none (empty). */
function textOf(body: { text?: unknown }): string {
  if (body.text === undefined) return '';
  if (typeof body.text !== 'string') throw new ConfigError([{ field: 'text', message: `the scenario text must be a string, not ${typeof body.text}` }]);
  return body.text;
}
