import type { ChatMessage, ChatParams } from '../core/chat-model.js';
import type { ConfigIssue } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { ModelSpec } from '../core/model-spec.js';
import type { MemorySettings } from './memory.js';
import type { BoundRouter } from './routers.js';
import type { FormatFieldInput } from './schema.js';

/** A model of the scenario, with `${ENV}` substituted and any `--model` override applied. */
export interface ScenarioModel {
  alias: string;
  spec: ModelSpec;
  /** Endpoint base URL (openai, anthropic). */
  apiBase?: string;
  /** Held in memory only; the stored config carries "[redacted]". */
  apiKey?: string;
  /** HTTP headers from kargs (`headers`, `default_headers`, `extra_headers`): sent, never stored. */
  headers?: Record<string, string>;
  params: ChatParams;
  /** Absolute path of the script of `baseline:script`. */
  scriptFile?: string;
  /** The `family:` of the entry, unless `--model` overrode it (then the family table decides). */
  family?: string;
  /** Per-attempt timeout from `kargs.timeout` (seconds). */
  timeoutSeconds?: number;
  /** Attempts from `kargs.max_retries` + 1; unset when `globals.retry.attempt` is given (that wins). */
  maxAttempts?: number;
}

export interface PromptMessage {
  role: ChatMessage['role'];
  content: string;
}

export interface ScenarioAgent {
  name: string;
  /** Alias of its model. */
  model: string;
  prompt: PromptMessage[];
  memory: MemorySettings;
}

/** Where the walk goes after a node: a fixed node, or a router deciding from the last message. */
export type Edge = { kind: 'node'; to: string } | { kind: 'router'; router: BoundRouter };

export interface DialogueGraph {
  /** The agent START leads to. */
  first: string;
  /** Outgoing edge of each agent. */
  edges: ReadonlyMap<string, Edge>;
}

/** One variable set: one dialogue per repeat. */
export interface ScenarioTask {
  /** The `id` variable when the task has one, else `task-<hash>`. */
  id: string;
  /** Content hash of the variables: the item version of its trials. */
  hash: string;
  vars: Record<string, string>;
}

/** A format field with its type resolved (a field without one is a float score). */
export interface FormatField extends Omit<FormatFieldInput, 'type' | 'items'> {
  type: NonNullable<FormatFieldInput['type']>;
  items?: FormatField[];
}

/** A field that enters the weighted score, with its normalised weight. */
export interface ScoredField {
  /** Dot-path into the judge's answer: `accuracy` or `guidance.score`. */
  path: string[];
  field: string;
  dimension: string;
  /** Normalised so that the weights of all scored fields sum to 1. */
  weight: number;
  scale: { min: number; max: number };
  /** bool fields count true as 1 and false as 0. */
  type: 'int' | 'float' | 'bool';
}

export interface Anchor {
  id: string;
  task: Record<string, string>;
  dialogue: string;
  scores: JsonObject;
  note?: string;
}

export type Aggregation = 'mean' | 'median' | 'majority';

export interface Evaluation {
  name: string;
  /** Judge model aliases (one for a single judge). */
  judges: string[];
  aggregation: Aggregation;
  repeats: number;
  formatMode: 'tool' | 'prompt';
  formatRetries: number;
  prompt: PromptMessage[];
  format: FormatField[];
  scored: ScoredField[];
  anchors: Anchor[];
  /** Content hash of the evaluation block: the version of every judgment it produces. */
  version: string;
}

export interface ScenarioGlobals {
  concurrency: number;
  recursionLimit: number;
  retry: { attempt: number; intervalSeconds: number };
  repeats: number;
  seed: number;
}

/**
 * One set of models to run the scenario with. Usually one; repeating `--model alias=spec` for the
 * same alias sweeps that alias over several models, one variant each.
 */
export interface ScenarioVariant {
  /** Name of the model under test in tables: the target agent's model alias, or the swept spec. */
  label: string;
  models: ReadonlyMap<string, ScenarioModel>;
}

/** A loaded, checked scenario, ready to run. */
export interface Scenario {
  name: string;
  file: string;
  /** Content hash of the scenario (tasks resolved, keys left out): the prompt version of its trials. */
  hash: string;
  description?: string;
  globals: ScenarioGlobals;
  /** The models of the first variant. */
  models: ReadonlyMap<string, ScenarioModel>;
  variants: ScenarioVariant[];
  agents: ReadonlyMap<string, ScenarioAgent>;
  graph: DialogueGraph;
  startPrompt?: PromptMessage;
  tasks: ScenarioTask[];
  evaluation?: Evaluation;
  /** The agent whose model is under test; its model alias names the trials. */
  target: string;
  /** The scenario as loaded, with keys replaced by "[redacted]": what the store keeps. */
  redacted: JsonObject;
  /** Things accepted but not acted on (ELMES keys Paideia does not use). */
  warnings: string[];
  /** Models that would be called with no API key at a host that needs one: bad input for a run (checkRunnable). */
  keyIssues: ConfigIssue[];
}

/**
 * Where a path a scenario names relative to itself (a model's `script`, `tasks.file`) is read, or
 * `{ refused }`: it is not to be read (the web app reads no file outside its folders), the reason
 * said as the problem of the field that names it.
 */
export type FileAt = (path: string) => string | { refused: string };
