import type { ConfigIssue } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import type { JsonObject } from '../core/json.js';
import { checkAnswer, formatJsonSchema } from './judge/format.js';
import { ANCHORS_PLACEHOLDER, DIALOG_PLACEHOLDER, asDialog } from './judge/prompt.js';
import { numericFields, resolveFormat } from './judge/fields.js';
import { scaleOf, scoredFields } from './judge/score.js';
import type { ScenarioFile } from './schema.js';
import { placeholders } from './template.js';
import type { Anchor, Evaluation, FormatField } from './types.js';
import type { YamlSource } from '../core/config/yaml-source.js';
import { closest } from '../core/config/zod-issues.js';

type EvaluationInput = NonNullable<ScenarioFile['evaluation']>;

/** The `evaluation` block, checked against the models and the task variables, with its scored fields. */
export function resolveEvaluation(
  raw: EvaluationInput,
  o: { models: ReadonlySet<string>; variables: ReadonlySet<string>; source: YamlSource; issues: ConfigIssue[]; warnings: string[] },
): Evaluation | undefined {
  const { source, issues } = o;
  const before = issues.length;
  const at = (path: Array<string | number>, message: string) => issues.push(source.issue(['evaluation', ...path], message));

  let judges: string[] = [];
  if (raw.model !== undefined && raw.judges !== undefined) at(['judges'], 'give either model (one judge) or judges (a panel), not both');
  else if (raw.model !== undefined) judges = [raw.model];
  else if (raw.judges !== undefined) judges = raw.judges.models;
  else at([], 'name the judge: model: <alias>, or judges: {models: [<alias>, ...]}');
  judges.forEach((alias, i) => {
    if (o.models.has(alias)) return;
    const guess = closest(alias, [...o.models]);
    at(raw.model !== undefined ? ['model'] : ['judges', 'models', i], `no model "${alias}" under models${guess ? `; did you mean "${guess}"?` : `; models: ${[...o.models].join(', ')}`}`);
  });
  if (new Set(judges).size !== judges.length) at(['judges', 'models'], 'a judge is listed twice; use repeats to judge more than once');

  raw.prompt.forEach((p, i) => {
    for (const name of placeholders(p.content)) {
      if (name === DIALOG_PLACEHOLDER || name === ANCHORS_PLACEHOLDER) continue;
      if (name.startsWith('task.') && o.variables.has(name.slice(5))) continue;
      const hint = name.startsWith('task.')
        ? `the tasks have: ${[...o.variables].join(', ')}`
        : o.variables.has(name) ? `write {task.${name}}` : `use {task.<variable>}, {${DIALOG_PLACEHOLDER}} or {${ANCHORS_PLACEHOLDER}}`;
      at(['prompt', i, 'content'], `unknown variable {${name}} in the evaluation prompt; ${hint}`);
    }
  });

  if (raw.scale && raw.scale.min >= raw.scale.max) at(['scale'], `scale.min (${raw.scale.min}) must be below scale.max (${raw.scale.max})`);
  const format = resolveFormat(raw.format, raw.scale);
  checkFormat(format, ['format'], at);
  const scored = scoredFields(format);
  const unscaled = numericFields(format).filter(f => !f.scaled);
  for (const f of unscaled) {
    const i = format.findIndex(x => x.field === f.field);
    o.warnings.push(`evaluation.format.${i} ("${f.field}"): a numeric field with no scale (no max, scale or evaluation.scale); it is reported as its mean on its own values${scored.length ? ' and left out of the weighted score' : ', and the overall score is ELMES\'s: the mean of the numeric fields'}. Declare the scale once with evaluation.scale: { min: 1, max: 5 }`);
  }

  const anchors: Anchor[] = (raw.anchors ?? []).map((a, i) => {
    const checked = checkAnswer(a.scores, format);
    if (!checked.ok) for (const p of checked.problems) at(['anchors', i, 'scores'], `the expert scores do not fit format: ${p}`);
    const dialogue = typeof a.dialogue === 'string' ? a.dialogue : asDialog(a.dialogue.map(t => ({ speaker: t.speaker, content: t.content })));
    return {
      id: a.id ?? `anchor-${i + 1}`,
      task: Object.fromEntries(Object.entries(a.task ?? {}).map(([k, v]) => [k, String(v)])),
      dialogue,
      scores: (checked.ok ? checked.value : a.scores) as JsonObject,
      ...(a.note !== undefined ? { note: a.note } : {}),
    };
  });

  if (issues.length > before) return undefined;
  const evaluation: Omit<Evaluation, 'version'> = {
    name: raw.name ?? 'evaluation',
    judges,
    aggregation: raw.judges?.aggregation ?? 'mean',
    repeats: raw.repeats ?? 1,
    formatMode: raw.format_mode ?? 'tool',
    formatRetries: raw.format_retries ?? 2,
    prompt: raw.prompt.map(p => ({ role: p.role ?? 'user', content: p.content })),
    format,
    scored,
    anchors,
  };
  return { ...evaluation, version: judgmentVersion(evaluation) };
}

/**
 * The version of a judgment: a hash of what the judge sees and nothing else - the judges (aliases
 * and, given, their model identities), format_mode, the prompt, the format as the judge is shown it
 * (its JSON Schema: fields, types, descriptions, bounds) and the anchors. Weights, dimensions,
 * aggregation, repeats and format_retries are left out: changing them reuses the stored judgments,
 * and the weighted scores are recomputed from their per-field values.
 */
export function judgmentVersion(ev: Pick<Evaluation, 'judges' | 'formatMode' | 'prompt' | 'format' | 'anchors'>, judgeModels?: unknown): string {
  return contentHash({
    judges: ev.judges, formatMode: ev.formatMode, prompt: ev.prompt, schema: formatJsonSchema(ev.format), anchors: ev.anchors,
    ...(judgeModels !== undefined ? { judgeModels } : {}),
  }, 12);
}

function checkFormat(fields: ReadonlyArray<FormatField>, path: Array<string | number>, at: (path: Array<string | number>, message: string) => void): void {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const here = [...path, i];
    if (seen.has(f.field)) at([...here, 'field'], `the field "${f.field}" appears twice`);
    seen.add(f.field);
    if (f.type === 'dict') {
      if (!f.items || f.items.length === 0) at(here, 'a dict field needs items (its sub-fields)');
      else checkFormat(f.items, [...here, 'items'], at);
    } else if (f.items !== undefined) at([...here, 'items'], `only dict fields have items; "${f.field}" is ${f.type}`);
    if ((f.max !== undefined || f.min !== undefined) && f.type !== 'int' && f.type !== 'float') at(here, 'min and max apply to int and float fields');
    if (f.max !== undefined && f.min !== undefined && f.min >= f.max) at([...here, 'min'], `min (${f.min}) must be below max (${f.max})`);
    if (f.scale && f.scale.min >= f.scale.max) at([...here, 'scale'], `scale.min (${f.scale.min}) must be below scale.max (${f.scale.max})`);
    if (f.weight !== undefined && f.weight > 0) {
      const score = f.type === 'dict' ? (f.items ?? []).find(s => s.field === 'score' && (s.type === 'int' || s.type === 'float')) : f;
      if (!score || score.type === 'str') at([...here, 'weight'], `a weighted field must be int, float or bool, or a dict with a numeric "score" item`);
      else if (!(f.type === 'dict' ? f.scale ?? scaleOf(score) : scaleOf(f))) at([...here, 'weight'], 'a weighted field needs a scale to normalise its score: set max (and min, default 0) or scale: {min, max}');
    }
  });
}
