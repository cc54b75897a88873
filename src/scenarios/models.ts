import type { Env } from '../core/env.js';
import { statSync } from 'node:fs';
import type { ChatModel, ChatParams } from '../core/chat-model.js';
import { ConfigError, formatLocation, type ConfigIssue } from '../core/errors.js';
import { quoteValue } from '../core/text-safety.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { ModelSpec, ModelSpecString } from '../core/model-spec.js';
import { createAnthropicModel } from '../providers/anthropic/index.js';
import { createChatModel } from '../providers/create-chat-model.js';
import { loadScriptFile, type ScriptTurns } from '../providers/script/index.js';
import { retryMiddleware, wrapChatModel } from '../providers/middleware/index.js';
import { sharedLimits, timeoutFlagHint, type SharedLimitSettings } from '../engine/models.js';
import { createOpenAICompatibleModel } from '../providers/openai-compatible/index.js';
import { baseUrlProblem } from '../providers/shared/base-url.js';
import type { FetchFunction } from '../providers/shared/post-json.js';
import { headersFromKargs, HEADER_KEYS } from './kargs-headers.js';
import type { ModelConfigInput } from './schema.js';
import type { FileAt, ScenarioGlobals, ScenarioModel } from './types.js';
import type { YamlSource } from '../core/config/yaml-source.js';

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` in one field; an unset or empty variable without a default is an issue naming the field. */
export function substituteEnv(text: string, env: Env, path: Array<string | number>, source: YamlSource, issues: ConfigIssue[]): string {
  return text.replace(ENV_REF, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    issues.push(source.issue(path, `environment variable ${name} is not set (the field reads \${${name}}); set it or override the model with --model ${String(path[1])}=provider:model`));
    return '';
  });
}

/**
 * ELMES client options in `kargs` (its LangChain and OpenAI SDK clients): not request parameters,
 * so never sent as such. `timeout` and LangChain's `request_timeout` (seconds) are the per-attempt
 * timeout, `max_retries` the retries after the first attempt, `model_kwargs` more request
 * parameters (merged), `extra_body` keys merged into the request body (as the OpenAI SDK does),
 * `streaming` ignored.
 */
export interface ClientOptions {
  timeoutSeconds?: number;
  maxRetries?: number;
}

/**
 * The client options of `kargs` (see ClientOptions), with a warning per ignored or unusable one.
 * `model_kwargs` is not one: paramsFromKargs merges it into the parameters.
 */
export function clientOptionsFromKargs(kargs: Record<string, unknown> | null | undefined, where: string, warnings: string[]): ClientOptions {
  const out: ClientOptions = {};
  const k = kargs ?? {};
  for (const key of ['request_timeout', 'timeout'] as const) {
    if (!(key in k)) continue;
    const v = k[key];
    if (typeof v === 'number' && v > 0) out.timeoutSeconds = v;
    else if (v !== null) warnings.push(`${where}.${key}: expected a number of seconds above 0, got ${quoteValue(v)}; ignored`);
  }
  if ('max_retries' in k) {
    if (typeof k.max_retries === 'number' && Number.isInteger(k.max_retries) && k.max_retries >= 0) out.maxRetries = k.max_retries;
    else if (k.max_retries !== null) warnings.push(`${where}.max_retries: expected a whole number >= 0, got ${quoteValue(k.max_retries)}; ignored`);
  }
  if ('streaming' in k) warnings.push(`${where}.streaming: ignored; Paideia asks for and stores whole answers`);
  if ('extra_body' in k && k.extra_body !== null && !isMapping(k.extra_body)) warnings.push(`${where}.extra_body: expected a mapping of body keys; ignored`);
  if ('model_kwargs' in k && (k.model_kwargs === null || typeof k.model_kwargs !== 'object' || Array.isArray(k.model_kwargs)) && k.model_kwargs !== undefined) {
    warnings.push(`${where}.model_kwargs: expected a mapping of request parameters; ignored`);
  }
  return out;
}

/** kargs keys that configure the client (ELMES/LangChain), never sent in a request body. */
const CLIENT_KEYS = new Set(['timeout', 'request_timeout', 'max_retries', 'streaming', 'model_kwargs', 'extra_body', ...HEADER_KEYS]);

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Parameters every protocol knows; any other `kargs` key passes through as a provider option.
 * Client options (`timeout`, `max_retries`, `streaming`) are not parameters and stay out;
 * `model_kwargs` is merged in as if its keys were given in `kargs` (a key given in both: kargs wins).
 */
export function paramsFromKargs(kargs: Record<string, unknown> | null | undefined, namespace: string): ChatParams {
  const params: ChatParams = {};
  const rest: JsonObject = {};
  const nested = kargs?.model_kwargs;
  const merged: Record<string, unknown> = {
    ...(nested !== null && typeof nested === 'object' && !Array.isArray(nested)
      ? Object.fromEntries(Object.entries(nested).filter(([key]) => !HEADER_KEYS.has(key))) : {}),
    ...Object.fromEntries(Object.entries(kargs ?? {}).filter(([key]) => !CLIENT_KEYS.has(key))),
    // The OpenAI SDK merges extra_body into the body last, over everything else.
    ...(isMapping(kargs?.extra_body) ? kargs.extra_body : {}),
  };
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'temperature' && typeof value === 'number') params.temperature = value;
    else if ((key === 'max_tokens' || key === 'maxTokens') && typeof value === 'number') params.maxTokens = value;
    else if ((key === 'top_p' || key === 'topP') && typeof value === 'number') params.topP = value;
    else if (key === 'seed' && typeof value === 'number') params.seed = value;
    else if (key === 'stop' && (typeof value === 'string' || Array.isArray(value))) params.stop = ([] as unknown[]).concat(value).map(String);
    else rest[key] = value as JsonValue;
  }
  if (Object.keys(rest).length > 0) params.providerOptions = { [namespace]: rest };
  return params;
}

/** kargs keys that look like credentials: they would be sent in request bodies, which are stored. */
export const SECRET_KEY = /(^|[_-])(api[_-]?key|key|token|secret|password|authorization)$/i;

const BASE_URL_VARIABLE: Record<string, string> = { openai: 'OPENAI_BASE_URL', anthropic: 'ANTHROPIC_BASE_URL', ollama: 'OLLAMA_BASE_URL' };

/** Where each HTTP provider reads its key when the entry gives none (as ELMES's OpenAI client does). */
const API_KEY_VARIABLE: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0']);

export interface ResolveModelOptions {
  /** `--model alias=spec`: replaces the whole endpoint (spec, base URL, key from the environment). */
  override?: ModelSpec;
  /** `--base-url`: the endpoint of every openai model; the file's key and headers are never sent there. */
  baseUrl?: string;
  /**
   * A stored run's endpoints (a rescore rebinding its models): the base URL the model of this alias
   * and spec was called at, or null for none of its own. It wins over the file's api_base,
   * `baseUrl` and the environment; undefined leaves the endpoint resolved as usual.
   */
  endpointOf?: (alias: string, spec: string) => string | null | undefined;
  /** Nothing will be called: an unset variable of a connection field is no problem (LoadScenarioOptions.offline). */
  offline?: boolean;
  env: Env;
  /** Where a path the scenario names relative to itself is read. */
  fileAt: FileAt;
  scriptFile?: string;
  source: YamlSource;
  issues: ConfigIssue[];
  warnings?: string[];
  /** Where a missing key is noted: bad input for a run (before any call), not for validate or a report. */
  keyIssues?: ConfigIssue[];
}

/**
 * One `models.<alias>` entry, resolved: env substituted, the override applied, the script found.
 * A null entry (the Elmes+ short form) has no model until `--model` binds one.
 */
export function resolveModel(alias: string, entry: ModelConfigInput | null, o: ResolveModelOptions): ScenarioModel {
  const path = (field: string) => ['models', alias, field];
  if (entry === null && !o.override) {
    o.issues.push(o.source.issue(['models', alias], `the model "${alias}" is not given (null or only named by an agent); bind it with --model ${alias}=provider:model, e.g. --model ${alias}=openai:gpt-4.1`));
  }
  const config: ModelConfigInput = entry ?? { model: o.override?.model ?? alias };
  const provider = o.override?.provider ?? config.type ?? 'openai';
  const name = o.override?.model ?? config.model;
  const spec: ModelSpec = { alias, provider, model: name, spec: `${provider}:${name}` as ModelSpecString };
  const nested = config.kargs?.model_kwargs;
  const nestedKeys = (['model_kwargs', 'extra_body'] as const).flatMap(parent => {
    const holder = config.kargs?.[parent];
    return holder !== null && typeof holder === 'object' && !Array.isArray(holder) ? Object.keys(holder).map(k => [parent, k] as const) : [];
  });
  void nested;
  for (const [parent, key] of [...Object.keys(config.kargs ?? {}).map(k => [undefined, k] as const), ...nestedKeys]) {
    if (SECRET_KEY.test(key)) o.issues.push(o.source.issue(['models', alias, 'kargs', ...(parent ? [parent] : []), key], `"${key}" looks like a credential; kargs are sent in request bodies, which the store keeps. Put the key in api_key (e.g. api_key: \${MY_KEY})`, { keyOnly: true }));
  }
  const sameProvider = !o.override || o.override.provider === (config.type ?? 'openai');
  const model: ScenarioModel = { alias, spec, params: sameProvider ? paramsFromKargs(config.kargs, provider) : {} };
  const client = clientOptionsFromKargs(config.kargs, `models.${alias}.kargs`, o.warnings ?? []);
  if (client.timeoutSeconds !== undefined) model.timeoutSeconds = client.timeoutSeconds;
  if (client.maxRetries !== undefined) model.maxAttempts = client.maxRetries + 1;
  // The file's family describes the file's model; an override names another one.
  if (config.family !== undefined && !o.override) model.family = config.family;
  // The file's endpoint and key serve only the file's model at the file's host: an override or
  // --base-url chooses another host, which gets the key of the environment, never the file's.
  const chosen = o.override !== undefined || (o.baseUrl !== undefined && provider === 'openai');
  if (!chosen && entry) {
    // Offline, what an unset variable leaves of a connection field is never sent: its problems go nowhere.
    const connection = o.offline ? [] : o.issues;
    const field = config.api_base ? 'api_base' : 'base_url';
    const base = config.api_base ?? config.base_url;
    if (base) model.apiBase = substituteEnv(base, o.env, path(field), o.source, connection);
    const problem = model.apiBase ? baseUrlProblem(model.apiBase) : undefined;
    if (problem) connection.push(o.source.issue(path(field), problem));
    if (config.api_key) model.apiKey = substituteEnv(config.api_key, o.env, path('api_key'), o.source, connection);
    const headers = headersFromKargs(config.kargs, { alias, env: o.env, source: o.source, issues: o.issues, substitute: (text, at) => substituteEnv(text, o.env, at, o.source, connection) });
    if (headers) model.headers = headers;
  }
  if (!model.apiBase && o.baseUrl !== undefined && provider === 'openai') model.apiBase = o.baseUrl;
  // An endpoint from the environment is as much part of the model's identity as one in the file:
  // the same model name at two endpoints is two models, and a resume must not go elsewhere.
  if (!model.apiBase) {
    const variable = BASE_URL_VARIABLE[provider as string];
    const fromEnv = variable ? o.env[variable] : undefined;
    if (fromEnv) model.apiBase = fromEnv;
    const problem = fromEnv ? baseUrlProblem(fromEnv) : undefined;
    if (problem) o.issues.push(o.source.issue(['models', alias], `${variable}: ${problem}`));
  }
  const stored = o.endpointOf?.(alias, spec.spec);
  if (stored === null) delete model.apiBase;
  else if (stored !== undefined) model.apiBase = stored;
  checkKey(model, o, entry !== null && !chosen);
  if (provider === 'baseline' && name === 'script') {
    const at = config.script !== undefined && sameProvider && !o.override ? (config.script.trim() === '' ? '' : o.fileAt(config.script)) : o.scriptFile;
    const file = typeof at === 'object' ? undefined : at;
    const kind = file ? fileKind(file) : undefined;
    if (typeof at === 'object') o.issues.push(o.source.issue(path('script'), at.refused));
    else if (file === '') o.issues.push(o.source.issue(path('script'), 'script is empty; name a file: `script: <file.json|file.jsonl>` (relative to the scenario)'));
    else if (!file) o.issues.push(o.source.issue(['models', alias], 'baseline:script needs a script: add `script: <file.json|file.jsonl>` (relative to the scenario)'));
    else if (kind === 'missing') o.issues.push(o.source.issue(path('script'), `script file not found: ${file}`));
    else if (kind !== 'file') o.issues.push(o.source.issue(path('script'), `the script ${file} is ${kind}, not a regular file; name a .json or .jsonl file`));
    else {
      model.scriptFile = file;
      // Its turns are checked now, as the run would read them: a wrong script is bad input before
      // any dialogue, told at the field that names it (the editor points there) with the script's own place.
      try {
        loadScriptFile(file);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        for (const i of error.issues) o.issues.push(o.source.issue(path('script'), `${formatLocation(i)}: ${i.message}`));
      }
    }
  } else if (config.script !== undefined && sameProvider && !o.override) {
    o.issues.push(o.source.issue(path('script'), 'script is read only by type baseline with model script'));
  }
  return model;
}

/**
 * A model at a host that is not this machine needs a key: with none in the file (fromFile) nor in
 * the provider's variable, every call would fail after its retries. Bad input, before any call.
 */
/**
 * A scripted model answers each role that asks it from that role's list, else the default list
 * (createScriptModel): every agent that has the model (by its name) and every judge (role
 * "judge") must find turns there, or each of its dialogues or judgments fails at its first call.
 * Scripts that do not read were reported where the model was resolved.
 */
export function scriptRoleIssues(variants: ReadonlyArray<ReadonlyMap<string, ScenarioModel>>, askers: ReadonlyArray<{ role: string; alias: string; at: Array<string | number> }>, source: YamlSource): ConfigIssue[] {
  const read = new Map<string, ScriptTurns | undefined>();
  const turnsOf = (file: string) => {
    if (!read.has(file)) {
      try {
        read.set(file, loadScriptFile(file));
      } catch {
        read.set(file, undefined);
      }
    }
    return read.get(file);
  };
  const issues: ConfigIssue[] = [];
  const said = new Set<string>();
  for (const models of variants) {
    for (const { role, alias, at } of askers) {
      const file = models.get(alias)?.scriptFile;
      const turns = file ? turnsOf(file) : undefined;
      if (!file || !turns || ((turns.byRole?.[role] ?? turns.default)?.length ?? 0) > 0 || said.has(`${file}\0${role}`)) continue;
      said.add(`${file}\0${role}`);
      const who = role === 'judge' ? 'its judge calls (role "judge")' : `agent "${role}"`;
      issues.push(source.issue(at, `the script ${file} of model "${alias}" has no turns for ${who}: add a "byRole": {"${role}": [...]} list or a "default" list`));
    }
  }
  return issues;
}

function checkKey(model: ScenarioModel, o: ResolveModelOptions, fromFile: boolean): void {
  const variable = API_KEY_VARIABLE[model.spec.provider as string];
  if (!variable || model.apiKey || o.env[variable]) return;
  const base = model.apiBase ?? (model.spec.provider === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com');
  let host: string;
  try {
    host = new URL(base).hostname;
  } catch {
    return; // the base URL's own issue names it
  }
  if (LOOPBACK.has(host)) return;
  const where = fromFile ? `set api_key (e.g. api_key: \${${variable}}) or ${variable}` : `set ${variable}`;
  o.keyIssues?.push(o.source.issue(['models', model.alias], `no API key for ${redactUrl(base)} (model ${model.spec.spec}): ${variable} is not set; ${where}, or point it at your own server with --base-url http://127.0.0.1:8080/v1`));
}

function fileKind(file: string): 'file' | 'missing' | 'a folder' | 'not a regular file' {
  try {
    const stat = statSync(file);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'a folder' : 'not a regular file';
  } catch {
    return 'missing';
  }
}

export interface BuildModelOptions {
  retry: ScenarioGlobals['retry'];
  fetch?: FetchFunction;
  env?: Env;
  /** Per-attempt timeout of a model whose entry sets none (kargs.timeout wins). */
  timeoutMs?: number;
  /** What a timed-out call says to do (scenarioTimeoutHint); default: raise timeoutMs. */
  timeoutHint?: (timeoutMs: number) => string;
  /** Rate limits and the in-flight cap, shared through the run's store by every worker. */
  limits?: SharedLimitSettings;
}

/**
 * What a timed-out call of a scenario model says to do. The entry's `kargs.timeout` (seconds)
 * wins over `--timeout`, so a model that sets one is told to raise it in the file.
 */
export function scenarioTimeoutHint(file: string, m: ScenarioModel): (timeoutMs: number) => string {
  if (m.timeoutSeconds !== undefined) return ms => `if the model is slow, raise models.${m.alias}.kargs.timeout (seconds) in ${file}, e.g. timeout: ${(ms * 2) / 1000}`;
  return timeoutFlagHint('scenario run');
}

/** A ChatModel for a scenario model, wrapped with the scenario's retry policy (fixed interval, as ELMES). */
export function buildChatModel(m: ScenarioModel, o: BuildModelOptions): ChatModel {
  // The model's own timeout (kargs.timeout, seconds) wins over the caller's default.
  const timeoutMs = m.timeoutSeconds !== undefined ? m.timeoutSeconds * 1000 : o.timeoutMs;
  const io = { env: o.env ?? process.env, ...(o.fetch ? { fetch: o.fetch } : {}), ...(timeoutMs ? { timeoutMs } : {}), ...(o.timeoutHint ? { timeoutHint: o.timeoutHint } : {}) };
  const endpoint = { ...(m.apiBase ? { baseURL: m.apiBase } : {}), ...(m.apiKey ? { apiKey: m.apiKey } : {}), ...(m.headers ? { headers: m.headers } : {}) };
  let base: ChatModel;
  if (m.spec.provider === 'openai') {
    base = createOpenAICompatibleModel({ model: m.spec.model, ...io, ...endpoint });
  } else if (m.spec.provider === 'anthropic') {
    base = createAnthropicModel({ model: m.spec.model, ...io, ...endpoint });
  } else {
    base = createChatModel(m.spec, { ...io, ...(m.scriptFile ? { scriptFile: m.scriptFile } : {}) });
  }
  if (base.isBaseline) return base;
  const intervalMs = o.retry.intervalSeconds * 1000;
  return wrapChatModel(base, retryMiddleware({ maxAttempts: m.maxAttempts ?? o.retry.attempt, baseDelayMs: intervalMs, maxDelayMs: intervalMs, jitter: 'none' }),
    ...(o.limits ? sharedLimits(m.spec.spec, base.endpoint, o.limits) : []));
}

/** What makes a model part of a trial's or a judgment's identity: never its key. */
export function modelIdentity(models: ReadonlyMap<string, ScenarioModel>, only?: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries([...models].filter(([alias]) => !only || only.has(alias)).map(([alias, m]) => [alias, {
    spec: m.spec.spec, params: m.params, ...(m.apiBase ? { apiBase: redactUrl(m.apiBase) } : {}),
  }]));
}

/** A URL with any user:password and query removed (some gateways take keys there). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '[redacted]';
  }
}
