import type { Env } from '../core/env.js';
import type { ChatModel } from '../core/chat-model.js';
import { ConfigError } from '../core/errors.js';
import type { ModelSpec } from '../core/model-spec.js';
import { createAnthropicModel } from './anthropic/index.js';
import { BASELINE_NAMES, createBaselineModel } from './baseline/index.js';
import { createOpenAICompatibleModel } from './openai-compatible/index.js';
import { checkBaseUrl } from './shared/base-url.js';
import { createReplayModel, type ReplayLookup } from './replay/index.js';
import { createScriptModel, loadScriptFile } from './script/index.js';
import type { FetchFunction } from './shared/post-json.js';

export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

/** Providers called over HTTP: the ones with a base URL (an endpoint a run records and a resume can move). */
export const HTTP_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'anthropic', 'ollama']);

export interface CreateChatModelOptions {
  /** Where defaults are read from. Default `process.env`. */
  env?: Env;
  /** Base URL for `openai:` specs (`--base-url`); wins over OPENAI_BASE_URL. Other providers have their own variables. */
  baseURL?: string;
  /** Base URL for any HTTP provider; wins over `baseURL` and the variables (a resumed run's stored endpoint). */
  endpoint?: string;
  /** API key for `openai:` specs (`--api-key`); wins over OPENAI_API_KEY. */
  apiKey?: string;
  fetch?: FetchFunction;
  timeoutMs?: number;
  /** How a timed-out call says to give the model longer (see HttpProviderSettings). */
  timeoutHint?: (timeoutMs: number) => string;
  /** Seed of `baseline:random`. */
  seed?: number;
  /** Needed by `replay:<run-id>`: finds stored answers. */
  replayLookup?: ReplayLookup;
  /** Needed by `baseline:script`: a `.json` or `.jsonl` script (see script/index.ts). */
  scriptFile?: string;
}

/**
 * The one place a model spec becomes a model. Each branch builds only its own provider, reading
 * its own variables, when asked; no vendor SDK is loaded. Missing inputs are ConfigErrors (exit 2).
 */
export function createChatModel(spec: ModelSpec, options: CreateChatModelOptions = {}): ChatModel {
  const env = options.env ?? process.env;
  checkSpecBaseUrl(spec, options, env);
  // Image support comes from the binding only (ModelSpec.images), never from the model's name.
  const io = {
    env, ...(spec.images ? { acceptsImages: true } : {}), ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.timeoutHint ? { timeoutHint: options.timeoutHint } : {}),
  };
  switch (spec.provider) {
    case 'openai':
      return createOpenAICompatibleModel({
        model: spec.model, ...io,
        ...(options.endpoint ?? options.baseURL ? { baseURL: options.endpoint ?? options.baseURL } : {}),
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      });
    case 'ollama':
      return createOpenAICompatibleModel({
        model: spec.model, ...io,
        provider: 'ollama',
        baseURL: options.endpoint || env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL,
        // Never send OPENAI_API_KEY to a local server; Ollama needs no key.
        apiKeyEnv: 'OLLAMA_API_KEY',
      });
    case 'anthropic':
      return createAnthropicModel({ model: spec.model, ...io, ...(options.endpoint ? { baseURL: options.endpoint } : {}) });
    case 'baseline':
      if (spec.model === 'script') {
        if (!options.scriptFile) throw specError(spec, 'baseline:script needs a script file: pass --script <file.json|file.jsonl> (in a scenario file, the model entry names it: script: <file>)');
        return createScriptModel({ turns: loadScriptFile(options.scriptFile) });
      }
      if (!(BASELINE_NAMES as readonly string[]).includes(spec.model)) {
        throw specError(spec, `no baseline named "${spec.model}"; known: ${[...BASELINE_NAMES, 'script'].join(', ')}`);
      }
      return createBaselineModel(spec.model, { seed: options.seed ?? 0 });
    case 'replay':
      if (!options.replayLookup) throw specError(spec, `replay:${spec.model} needs a store to read the run from (option \`replayLookup\`)`);
      return createReplayModel({ runId: spec.model, lookup: options.replayLookup });
  }
}

/** A base URL that is not http(s) is bad input, named by where it came from (flag, variable or stored run). */
function checkSpecBaseUrl(spec: ModelSpec, options: CreateChatModelOptions, env: Env): void {
  const sources: Record<string, Array<[string, string | undefined]>> = {
    openai: [['the stored endpoint', options.endpoint], ['--base-url', options.baseURL], ['OPENAI_BASE_URL', env.OPENAI_BASE_URL]],
    ollama: [['the stored endpoint', options.endpoint], ['OLLAMA_BASE_URL', env.OLLAMA_BASE_URL]],
    anthropic: [['the stored endpoint', options.endpoint], ['ANTHROPIC_BASE_URL', env.ANTHROPIC_BASE_URL]],
  };
  const [field, url] = (sources[spec.provider] ?? []).find(([, u]) => u) ?? [];
  if (field && url) checkBaseUrl(url, field);
}

function specError(spec: ModelSpec, message: string): ConfigError {
  return new ConfigError([{ field: 'model', message: `${spec.spec}: ${message}` }]);
}
