import type { Env } from '../core/env.js';
import { basename, dirname, extname, resolve } from 'node:path';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { FILE_LIMITS, readUserBytes, readUserText } from '../core/user-file.js';
import type { JsonObject } from '../core/json.js';
import type { ModelSpec } from '../core/model-spec.js';
import { judgmentVersion, resolveEvaluation } from './evaluation.js';
import { buildGraph, reachesEnd, unreachableAgents } from './graph.js';
import { redactHeaderValues } from './kargs-headers.js';
import { baseUrlProblem } from '../providers/shared/base-url.js';
import { modelIdentity, redactUrl, resolveModel, scriptRoleIssues, SECRET_KEY } from './models.js';
import { ScenarioFileSchema, type ScenarioFile } from './schema.js';
import { expandShortForms, type ExpandedScenarioFile } from './short-forms.js';
import { buildTasks, type TaskOrigin } from './tasks.js';
import { placeholders } from './template.js';
import type { FileAt, PromptMessage, Scenario, ScenarioAgent, ScenarioModel, ScenarioTask, ScenarioVariant } from './types.js';
import { parseYamlMapping } from '../core/config/yaml-mapping.js';
import type { YamlSource } from '../core/config/yaml-source.js';
import { closest } from '../core/config/zod-issues.js';

export interface LoadScenarioOptions {
  /** Where `${VAR}` is read from. Default `process.env`. */
  env?: Env;
  /**
   * `--model alias=spec` overrides, parsed with parseModelSpec. Giving one alias several times
   * sweeps it: one variant per spec.
   */
  models?: ModelSpec[];
  /** Script for `baseline:script` overrides of models whose entry has no `script`. */
  scriptFile?: string;
  /**
   * Where a path the file names relative to itself is read (FileAt); default: beside the file. The
   * editor checks a shipped scenario as the copy its save will make, and refuses paths outside its folders.
   */
  fileAt?: FileAt;
  /**
   * `--base-url`: the endpoint of every openai model (the file's and the overrides); the file's
   * api_key and headers are then never sent, the key comes from OPENAI_API_KEY.
   */
  baseUrl?: string;
  /**
   * A stored run's endpoints (`paideia rescore`): the base URL each model (alias and spec) was
   * called at, or null for none of its own. It wins over the file's api_base, `baseUrl` and the
   * environment, so the models are the run's own wherever their endpoints came from.
   */
  endpointOf?: (alias: string, spec: string) => string | null | undefined;
  /**
   * Nothing will be called (`paideia rescore`): a connection field (api_key, api_base or base_url,
   * kargs headers) whose `${VAR}` is unset is no problem, as no request is made with it.
   */
  offline?: boolean;
}

/**
 * Read, check and resolve a scenario file. Every problem found is reported at once as one
 * ConfigError whose issues carry the file, the YAML line and the dot-path of the field.
 */
export function loadScenario(file: string, options: LoadScenarioOptions = {}): Scenario {
  const read = readUserText(file, 'scenario', FILE_LIMITS.config);
  if ('problem' in read) throw new ConfigError([{ file, ...(read.line ? { line: read.line } : {}), message: read.problem }]);
  return parseScenario(file, read.text, options);
}

/** As loadScenario, from text already read (`file` names it in messages and anchors relative paths). */
export function parseScenario(file: string, text: string, options: LoadScenarioOptions = {}): Scenario {
  // Unknown keys are told with every other problem of the file, not alone first.
  const { source, data, issues } = parseYamlMapping(file, text, ScenarioFileSchema, 'a scenario is a YAML mapping with models, agents, directions and tasks');
  const expanded = expandShortForms(data, source, issues);
  const scenario = resolveScenario(expanded, file, source, options, issues);
  if (issues.length > 0 || !scenario) throw new ConfigError(issues);
  return scenario;
}

function resolveScenario(data: ExpandedScenarioFile, file: string, source: YamlSource, o: LoadScenarioOptions, issues: ConfigIssue[]): Scenario | undefined {
  const env = o.env ?? process.env;
  const baseDir = dirname(resolve(file));
  const fileAt: FileAt = o.fileAt ?? ((path: string) => resolve(baseDir, path));
  const warnings: string[] = [];
  const keyIssues: ConfigIssue[] = [];
  const aliases = new Set(Object.keys(data.models));
  if (o.baseUrl !== undefined) {
    const problem = baseUrlProblem(o.baseUrl);
    if (problem) issues.push({ field: '--base-url', message: problem });
  }

  // Overrides: one variant per spec of a swept alias.
  const overrides = new Map<string, ModelSpec[]>();
  for (const spec of o.models ?? []) {
    if (!aliases.has(spec.alias)) {
      const guess = closest(spec.alias, [...aliases]);
      issues.push({ field: '--model', message: `the scenario has no model "${spec.alias}"${guess ? `; did you mean "${guess}"?` : ''}; its models: ${[...aliases].join(', ')} (write --model <alias>=provider:model)` });
      continue;
    }
    overrides.set(spec.alias, [...(overrides.get(spec.alias) ?? []), spec]);
  }
  const swept = [...overrides].filter(([, list]) => list.length > 1);
  if (swept.length > 1) issues.push({ field: '--model', message: `only one model alias may be given several times (a sweep); got ${swept.map(([a]) => a).join(', ')}` });
  const sweep = swept[0];
  const variantSpecs: Array<Map<string, ModelSpec>> = (sweep ? sweep[1] : [undefined]).map(swapped => {
    const m = new Map<string, ModelSpec>();
    for (const [alias, list] of overrides) m.set(alias, alias === sweep?.[0] && swapped ? swapped : list[0]!);
    return m;
  });
  const variantModels = variantSpecs.map(specs => new Map(Object.entries(data.models).map(([alias, config]) => [alias, resolveModel(alias, config, {
    ...(specs.get(alias) ? { override: specs.get(alias)! } : {}), ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}), env, fileAt, source, issues, warnings, keyIssues,
    ...(o.endpointOf ? { endpointOf: o.endpointOf } : {}), ...(o.offline ? { offline: true } : {}),
    ...(o.scriptFile ? { scriptFile: resolve(o.scriptFile) } : {}),
  })])));
  // A sweep resolves each entry once per variant; report each problem once.
  dedupeIssues(issues);
  dedupeIssues(keyIssues);
  warnings.splice(0, warnings.length, ...new Set(warnings));
  // kargs.max_retries sets a model's attempts only where globals.retry.attempt does not.
  if (data.globals?.retry?.attempt !== undefined) {
    for (const models of variantModels) {
      for (const m of models.values()) {
        if (m.maxAttempts === undefined) continue;
        delete m.maxAttempts;
        const w = `models.${m.alias}.kargs.max_retries: ignored; globals.retry.attempt (${data.globals.retry.attempt}) sets the attempts`;
        if (!warnings.includes(w)) warnings.push(w);
      }
    }
  }

  const agents = new Map<string, ScenarioAgent>();
  for (const [name, a] of Object.entries(data.agents)) {
    if (name === 'START' || name === 'END') issues.push(source.issue(['agents', name], `"${name}" is a reserved node name; rename the agent`, { keyOnly: true }));
    if (!aliases.has(a.model)) {
      const guess = closest(a.model, [...aliases]);
      issues.push(source.issue(['agents', name, 'model'], `no model "${a.model}" under models${guess ? `; did you mean "${guess}"?` : `; models: ${[...aliases].join(', ')}`}`));
    }
    if (typeof a.memory?.id === 'string') warnings.push(`agents.${name}.memory.id: every dialogue starts with a fresh memory of its own (kept in the store); the id "${a.memory.id}" is not used`);
    if (a.tools && a.tools.length > 0) issues.push(source.issue(['agents', name, 'tools'], 'agent tools (ELMES MCP) are not supported by Paideia; remove them'));
    agents.set(name, {
      name,
      model: a.model,
      prompt: a.prompt.map(p => ({ role: p.role ?? 'user', content: p.content })),
      memory: { enable: a.memory?.enable ?? true, keepTurns: a.memory?.keep_turns ?? 3 },
    });
  }
  if (data.mcps !== undefined) warnings.push('mcps: MCP servers are not supported; the block is ignored');
  if (data.globals?.memory?.path !== undefined) warnings.push('globals.memory.path: dialogues are kept in the Paideia store; the path is ignored');

  const graph = buildGraph(data.directions, new Set(agents.keys()), source, issues);
  if (graph) {
    for (const a of unreachableAgents(graph, agents.keys())) warnings.push(`agent "${a}" is never reached from START`);
    if (!reachesEnd(graph)) {
      warnings.push(`directions: no path from START reaches END (no edge or router leads there), so every dialogue runs until globals.recursion_limit (${data.globals?.recursion_limit ?? 25} turns) and is marked capped; add e.g. a router with exists_to=END or max_turns`);
    }
  }

  const origins = new Map<string, TaskOrigin>();
  const tasks = buildTasks(data.tasks, fileAt, source, issues, { origins });
  const startPrompt: PromptMessage | undefined = data.tasks.start_prompt === undefined ? undefined
    : typeof data.tasks.start_prompt === 'string' ? { role: 'user', content: data.tasks.start_prompt }
      : { role: data.tasks.start_prompt.role ?? 'user', content: data.tasks.start_prompt.content };
  checkVariables(data, tasks, source, issues, origins);

  const variables = new Set(tasks.flatMap(t => Object.keys(t.vars)));
  const evaluation = data.evaluation
    ? resolveEvaluation(data.evaluation, { models: aliases, variables, source, issues, warnings })
    : undefined;

  let target = data.evaluation?.target;
  if (target !== undefined && !agents.has(target)) {
    issues.push(source.issue(['evaluation', 'target'], `no agent "${target}"; agents: ${[...agents.keys()].join(', ')}`));
  }
  target ??= agents.has('teacher') ? 'teacher' : graph?.first;
  issues.push(...scriptRoleIssues(variantModels, [
    ...[...agents.values()].map(a => ({ role: a.name, alias: a.model, at: ['agents', a.name, 'model'] })),
    ...(evaluation?.judges ?? []).map(alias => ({ role: 'judge', alias, at: ['evaluation'] })),
  ], source));
  if (issues.length > 0 || !graph || !target) return undefined;

  const targetAlias = agents.get(target)!.model;
  const variants: ScenarioVariant[] = variantModels.map((models, i) => ({
    label: !sweep ? targetAlias : sweep[0] === targetAlias ? models.get(targetAlias)!.spec.spec : `${targetAlias}[${sweep[0]}=${variantSpecs[i]!.get(sweep[0])!.spec}]`,
    models,
  }));
  const labels = variants.map(v => v.label);
  const twice = labels.find((l, i) => labels.indexOf(l) !== i);
  if (twice) {
    issues.push({ field: '--model', message: `the model sweep names ${twice} twice` });
    return undefined;
  }
  const redacted = redactConfig(data);
  const agentModels = new Set([...agents.values()].map(a => a.model));
  const hash = contentHash({ config: dialogueConfig(data, agentModels), tasks, scripts: scriptHashes(variantModels, agentModels) }, 16);
  if (evaluation) {
    // The judges' models (with their scripts) are part of what a judgment is, not of the dialogues.
    const judges = new Set(evaluation.judges);
    evaluation.version = judgmentVersion(evaluation, {
      models: variantModels.map(models => modelIdentity(models, judges)),
      scripts: scriptHashes(variantModels, judges),
    });
  }
  const globals = data.globals ?? {};
  return {
    name: data.name ?? sanitizeName(basename(file, extname(file))),
    file: resolve(file),
    hash,
    ...(data.description !== undefined ? { description: data.description } : {}),
    globals: {
      concurrency: globals.concurrency ?? 8,
      recursionLimit: globals.recursion_limit ?? 25,
      retry: { attempt: globals.retry?.attempt ?? 3, intervalSeconds: globals.retry?.interval ?? 3 },
      repeats: globals.repeats ?? 1,
      seed: globals.seed ?? 0,
    },
    models: variants[0]!.models,
    variants,
    agents,
    graph,
    ...(startPrompt ? { startPrompt } : {}),
    tasks,
    ...(evaluation ? { evaluation } : {}),
    target,
    redacted,
    warnings,
    keyIssues,
  };
}

/** Every `{variable}` of agent prompts and the start prompt must exist in every task. */
function checkVariables(data: ExpandedScenarioFile, tasks: ScenarioTask[], source: YamlSource, issues: ConfigIssue[], origins: ReadonlyMap<string, TaskOrigin>): void {
  if (tasks.length === 0) return;
  const uses: Array<{ path: Array<string | number>; where: string; name: string }> = [];
  for (const [agent, a] of Object.entries(data.agents)) {
    a.prompt.forEach((p, i) => {
      for (const name of placeholders(p.content)) uses.push({ path: ['agents', agent, 'prompt', i, 'content'], where: `prompt ${i} of agent "${agent}"`, name });
    });
  }
  const sp = data.tasks.start_prompt;
  if (sp !== undefined) {
    const content = typeof sp === 'string' ? sp : sp.content;
    for (const name of placeholders(content)) uses.push({ path: typeof sp === 'string' ? ['tasks', 'start_prompt'] : ['tasks', 'start_prompt', 'content'], where: 'the start prompt', name });
  }
  const reported = new Set<string>();
  // A task line lacking a variable is told once, with every place that uses it (by variable: the
  // task told is always the first that lacks it).
  const atTask = new Map<string, { at: TaskOrigin; lead: string; tail: string; uses: string[] }>();
  for (const use of uses) {
    const key = use.name.startsWith('task.') ? use.name.slice(5) : use.name;
    const missing = tasks.find(t => !Object.hasOwn(t.vars, key));
    if (!missing) continue;
    const id = `${use.path.join('.')}:${use.name}`;
    if (reported.has(id)) continue;
    reported.add(id);
    const known = Object.keys(missing.vars);
    const guess = closest(key, known);
    const lacking = tasks.filter(t => !Object.hasOwn(t.vars, key)).length;
    const origin = origins.get(missing.hash);
    // Some tasks lack it: the task's line is what to fix (the others show the prompt is right).
    if (lacking < tasks.length && origin) {
      let entry = atTask.get(key);
      if (!entry) {
        atTask.set(key, entry = {
          at: origin, lead: `this task${lacking > 1 ? ` (and ${lacking - 1} other task(s))` : ''} has no variable "${key}"`,
          tail: `${guess ? `; it has "${guess}": a misspelling?` : ''}; its variables: ${known.join(', ') || '(none)'}`, uses: [],
        });
      }
      entry.uses.push(`${use.where} ({${use.name}})`);
      continue;
    }
    const scope = lacking === tasks.length ? 'the tasks have no variable' : `task "${missing.id}" has no variable`;
    issues.push(source.issue(use.path, `unknown variable {${use.name}} in ${use.where}: ${scope} "${key}"${guess ? `; did you mean {${guess}}?` : ''}; variables: ${known.join(', ') || '(none)'}`));
  }
  for (const [key, t] of atTask) issues.push({ file: t.at.file, line: t.at.line, field: key, message: `${t.lead}, used by ${t.uses.join(' and ')}${t.tail}` });
}

function dedupeIssues(issues: ConfigIssue[]): void {
  const seen = new Set<string>();
  const kept = issues.filter(i => {
    const key = `${i.file}|${i.line}|${i.field}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  issues.splice(0, issues.length, ...kept);
}

/** The config as stored: keys replaced, endpoint credentials removed, credential-like kargs hidden. */
export function redactConfig(data: ScenarioFile | ExpandedScenarioFile): JsonObject {
  const copy = JSON.parse(JSON.stringify(data)) as ScenarioFile;
  for (const m of Object.values(copy.models ?? {})) {
    if (!m) continue;
    if (m.api_key) m.api_key = '[redacted]';
    if (m.api_base) m.api_base = m.api_base.includes('${') ? m.api_base : redactUrl(m.api_base);
    if (m.base_url) m.base_url = m.base_url.includes('${') ? m.base_url : redactUrl(m.base_url);
    for (const key of Object.keys(m.kargs ?? {})) if (SECRET_KEY.test(key)) m.kargs![key] = '[redacted]';
    if (m.kargs) m.kargs = redactHeaderValues(m.kargs);
  }
  return copy as unknown as JsonObject;
}

/**
 * What the dialogues depend on, for the scenario hash. Keys never change what a scenario is:
 * leaving them out keeps the hash (and the run) when a key rotates. Nor does `family`, a label for
 * the report: adding it later keeps the run. Nor does the `evaluation` block (only its `target`,
 * which names the model under test) or a model only judges use: changing the rubric or a judge
 * keeps the run and its dialogues, and only judges again (see judgmentVersion).
 */
function dialogueConfig(data: ExpandedScenarioFile, agentModels: ReadonlySet<string>): unknown {
  const models = Object.entries(data.models).filter(([a]) => agentModels.has(a));
  return {
    ...data,
    evaluation: data.evaluation?.target,
    models: Object.fromEntries(models.map(([a, m]) => [a, m && { ...m, api_key: undefined, family: undefined, ...(m.kargs ? { kargs: redactHeaderValues(m.kargs) } : {}) }])),
  };
}

function scriptHashes(variants: Array<Map<string, ScenarioModel>>, only: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const models of variants) {
    for (const m of models.values()) {
      if (!only.has(m.alias)) continue;
      if (!m.scriptFile) continue;
      const read = readUserBytes(m.scriptFile, 'script', FILE_LIMITS.config);
      if ('problem' in read) throw new ConfigError([{ file: m.scriptFile, message: read.problem }]);
      out[m.alias + ':' + basename(m.scriptFile)] = contentHash(read.bytes.toString('utf8'));
    }
  }
  return out;
}

function sanitizeName(name: string): string {
  return name.replace(/[^\p{L}\p{N}_-]+/gu, '_') || 'scenario';
}
