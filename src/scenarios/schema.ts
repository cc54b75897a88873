import { z } from 'zod';
import { PROVIDERS } from '../core/model-spec.js';

/**
 * The scenario file format: the ELMES format (Wei et al. 2025) plus Paideia's extensions. This
 * schema checks shape only; cross-references (agents naming models, directions naming agents,
 * placeholders naming task variables) are checked by the loader, which knows the whole file.
 *
 * Strict where a typo is likely and would silently change a run (top-level keys, agents,
 * evaluation, format fields); liberal where ELMES is (`kargs` passes anything through).
 */

const NAME = /^[\p{L}_][\p{L}\p{N}_-]*$/u;
const nameHint = 'a name of letters, digits, _ and - that starts with a letter or _';

/** A task variable value: files write numbers and booleans too; they are rendered as text. */
const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const PromptMessageSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']).nullable().optional().describe('Defaults to user (ELMES allows null: the same)'),
  content: z.string().describe('Text with {variable} placeholders filled from the task'),
});

const GlobalsSchema = z.strictObject({
  concurrency: z.number().int().min(1).optional().describe('Dialogues run at once (default 8)'),
  recursion_limit: z.number().int().min(1).optional().describe('Step cap: agent turns per dialogue (default 25)'),
  retry: z.strictObject({
    attempt: z.number().int().min(1).optional().describe('Attempts per model call, the first included (default 3)'),
    interval: z.number().min(0).optional().describe('Seconds between attempts (default 3)'),
  }).optional(),
  memory: z.looseObject({
    path: z.string().optional().describe('ELMES checkpoint folder; Paideia keeps dialogues in its store instead'),
  }).optional(),
  output_dir: z.string().optional().describe('ELMES output folder; accepted and unused'),
  repeats: z.number().int().min(1).optional().describe('Paideia: dialogues per task (default 1)'),
  seed: z.number().int().min(0).optional().describe('Paideia: seed recorded with every dialogue (default 0)'),
});

export const ModelConfigSchema = z.strictObject({
  type: z.enum(PROVIDERS).optional().describe('Provider (default openai)'),
  model: z.string().min(1).describe('Model name within the provider; for type baseline: copy, gold, random or script'),
  api_base: z.string().nullable().optional().describe('Endpoint base URL; ${ENV_VAR} is substituted'),
  base_url: z.string().nullable().optional().describe('Alias of api_base'),
  api_key: z.string().nullable().optional().describe('API key, usually ${ENV_VAR}; never stored'),
  kargs: z.record(z.string(), z.unknown()).nullable().optional().describe('Parameters passed through to the provider'),
  script: z.string().optional().describe('Paideia: script file for type baseline, model script (relative to the scenario)'),
  family: z.string().min(1).optional().describe('Paideia: model family for the self-preference check (default: from the model name); a label only, it changes no call'),
});

/** An entry of `models`: a model, or null (the Elmes+ short form: bound on the command line with --model). */
export const ModelEntrySchema = ModelConfigSchema.nullable();

export const AgentMemorySchema = z.strictObject({
  enable: z.boolean().optional().describe('See earlier turns (default true)'),
  keep_turns: z.number().int().min(0).optional().describe('Own earlier turns remembered, with what led to them (default 3)'),
  id: z.string().nullable().optional().describe('ELMES memory id; null or absent is a fresh memory. Paideia keeps each dialogue in its store, so every dialogue starts fresh'),
});

export const AgentConfigSchema = z.strictObject({
  model: z.string().min(1).nullable().optional().describe('Alias of a model under `models`; null or absent: the agent\'s own name, bound with --model <agent>=provider:model'),
  prompt: z.array(PromptMessageSchema).min(1).optional().describe('The agent\'s prompt messages (or give one message inline as role and content)'),
  role: z.enum(['system', 'user', 'assistant']).nullable().optional().describe('Elmes+ short form: the role of the one prompt message (default system)'),
  content: z.string().optional().describe('Elmes+ short form: the text of the one prompt message'),
  memory: AgentMemorySchema.optional(),
  tools: z.array(z.unknown()).optional().describe('ELMES MCP tools: not supported; a non-empty list is an error'),
});

export const TasksSchema = z.strictObject({
  mode: z.enum(['iter', 'union']).describe('iter: a list of variable sets; union: the Cartesian product of lists'),
  start_prompt: z.union([z.string(), PromptMessageSchema]).optional().describe('First message of every dialogue'),
  content: z
    .union([z.array(z.record(z.string(), scalar)), z.record(z.string(), z.array(scalar))])
    .optional()
    .describe('iter: list of {variable: value}; union: {variable: [values]}'),
  file: z.string().optional().describe('Paideia: JSONL or CSV file of variable sets (mode iter), relative to the scenario'),
});

/** One field of the judge's answer (ELMES `format`), with Paideia's rubric extensions. */
export interface FormatFieldInput {
  field: string;
  /** Absent (the Elmes+ short form): a numeric score, as `float`. */
  type?: 'str' | 'int' | 'float' | 'bool' | 'dict';
  description?: string;
  items?: FormatFieldInput[];
  max?: number;
  min?: number;
  dimension?: string;
  weight?: number;
  scale?: { min: number; max: number };
}

export const FormatFieldSchema: z.ZodType<FormatFieldInput> = z.strictObject({
  field: z.string().trim().min(1).describe('Name of the field in the judge\'s answer; may hold spaces (Elmes+ "Knowledge accuracy")'),
  type: z.enum(['str', 'int', 'float', 'bool', 'dict']).optional().describe('Default float: a numeric score (the Elmes+ short form)'),
  description: z.string().optional(),
  get items() {
    return z.array(FormatFieldSchema).optional().describe('Sub-fields of a dict field');
  },
  max: z.number().optional().describe('Largest allowed value of an int or float field'),
  min: z.number().optional().describe('Paideia: smallest allowed value (default 0 for scoring)'),
  dimension: z.string().min(1).optional().describe('Paideia: rubric dimension the field scores (default: the field name)'),
  weight: z.number().min(0).optional().describe('Paideia: weight w_i in Score = sum_i w_i * s_i (weights are normalised to sum 1)'),
  scale: z.strictObject({ min: z.number(), max: z.number() }).optional().describe('Paideia: scale used to normalise s_i to [0, 1] (default [min, max])'),
});

export const AnchorSchema = z.strictObject({
  id: z.string().optional(),
  task: z.record(z.string(), scalar).optional().describe('Task variables of the example'),
  dialogue: z
    .union([z.string(), z.array(z.strictObject({ speaker: z.string(), content: z.string() }))])
    .describe('The example transcript, as text or as {speaker, content} turns'),
  scores: z.record(z.string(), z.unknown()).describe('The expert scores, one value per format field'),
  note: z.string().optional().describe("The expert's reason, shown to the judge"),
});

export const EvaluationSchema = z.strictObject({
  name: z.string().regex(NAME, nameHint).nullable().optional().describe('Name of the judgment (default: evaluation)'),
  model: z.string().optional().describe('Alias of the judge model (or use judges)'),
  judges: z.strictObject({
    models: z.array(z.string().min(1)).min(1).describe('Aliases of the judge models'),
    aggregation: z.enum(['mean', 'median', 'majority']).optional().describe('How judges are combined (default mean)'),
  }).optional().describe('Paideia: a panel of judges; individual scores are kept'),
  target: z.string().optional().describe('Agent under test (default: agent "teacher", else the agent START leads to)'),
  prompt: z.array(PromptMessageSchema).min(1),
  format: z.array(FormatFieldSchema).min(1),
  scale: z.strictObject({ min: z.number(), max: z.number() }).optional().describe('Paideia: the scale of every int or float field that gives none (no max, no scale)'),
  format_mode: z.enum(['tool', 'prompt']).optional().describe('tool: forced function call; prompt: JSON between markers'),
  format_retries: z.number().int().min(0).optional().describe('Paideia: new attempts after a non-conforming answer (default 2)'),
  repeats: z.number().int().min(1).optional().describe('Paideia: judgments per judge and dialogue (default 1)'),
  anchors: z.array(AnchorSchema).optional().describe('Paideia: expert-scored examples shown to the judge'),
});

export const ScenarioFileSchema = z.strictObject({
  name: z.string().regex(NAME, nameHint).optional().describe('Paideia: scenario name (default: the file name)'),
  description: z.string().optional(),
  globals: GlobalsSchema.optional(),
  models: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -'), ModelEntrySchema).nullable().describe('Models by alias; null entries (or agents without a model) are bound with --model'),
  agents: z.record(z.string().regex(NAME, nameHint), AgentConfigSchema),
  directions: z.array(z.string()).min(1).describe('Edges "A -> B", from START to END; routers as "A -> router:name(args)"'),
  tasks: TasksSchema,
  evaluation: EvaluationSchema.optional(),
  mcps: z.unknown().optional().describe('ELMES MCP servers: accepted, not supported'),
});

export type ScenarioFile = z.infer<typeof ScenarioFileSchema>;
export type PromptMessageInput = z.infer<typeof PromptMessageSchema>;
export type ModelConfigInput = z.infer<typeof ModelConfigSchema>;

/** The JSON Schema of scenario files, for editors and `paideia scenario schema`. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScenarioFileSchema, { io: 'input', target: 'draft-2020-12' }),
    title: 'Paideia scenario',
    description: 'A teaching scenario: models, agents, a dialogue graph, tasks and a judged rubric (ELMES format with Paideia extensions).',
  };
}
