import { ConfigError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import type { JsonValue } from '../../core/json.js';
import type { Store } from '../../core/store.js';
import { Xoshiro128 } from '../../stats/random/index.js';
import { loadScenarioRun } from '../analysis/stored.js';
import { formatCsv } from '../csv.js';
import { loadStoredDialogues } from '../dialogue.js';
import { asDialog } from '../judge/prompt.js';
import { COMMENT_COLUMN, FIXED_COLUMNS, rubricColumns, scaleText, type RubricColumn } from './columns.js';

/** Artifact kind of the stored keys: import finds the ids of a run's exports there. */
export const BLIND_EXPORT_KIND = 'blind-export';

/** What an expert sees of one dialogue: nothing that names a model. */
export interface BlindItem {
  id: string;
  /** The task variables, one `name: value` per line. */
  task: string;
  /** The dialogue as the judges saw it (`speaker: text`, reasoning removed). */
  transcript: string;
}

/** The private key of an export: opaque id -> dialogue and model. Never part of the export. */
export interface BlindKey {
  kind: 'paideia.blind-key.v1';
  exportId: string;
  runId: string;
  seed: number;
  evaluation: { name: string; version: string };
  columns: RubricColumn[];
  items: Array<{ id: string; trialId: string; model: string; spec: string; taskId: string; repeat: number }>;
}

export interface BlindExport {
  items: BlindItem[];
  columns: RubricColumn[];
  key: BlindKey;
}

/**
 * Every judged (ended or capped) dialogue of a run, for blind scoring by experts: ids are opaque
 * hashes, and the order is a seeded Fisher-Yates shuffle of the dialogues sorted by trial id, so
 * the same run and seed always give the same file and the order says nothing about the model.
 */
export async function buildBlindExport(store: Store, runId: string, seed = 0): Promise<BlindExport> {
  if (!Number.isInteger(seed) || seed < 0) throw new ConfigError([{ field: '--seed', message: `expected a whole number >= 0, got ${seed}` }]);
  const data = await loadScenarioRun(store, runId);
  const ev = data.evaluation;
  if (!ev) throw new ConfigError([{ field: 'run-id', message: `run "${runId}" has no evaluation, so there is no rubric to score` }]);
  const columns = rubricColumns(ev);
  if (columns.length === 0) throw new ConfigError([{ field: 'run-id', message: `the evaluation "${ev.name}" has no scored field (int, float or bool with a scale) for experts to score` }]);
  const tasks = new Map(data.config.tasks.map(t => [t.hash, t]));
  const dialogues = [...(await loadStoredDialogues(store, runId)).values()]
    .filter(d => d.meta.status === 'ended' || d.meta.status === 'capped')
    .sort((a, b) => (a.trial.id < b.trial.id ? -1 : a.trial.id > b.trial.id ? 1 : 0));
  if (dialogues.length === 0) throw new ConfigError([{ field: 'run-id', message: `run "${runId}" has no finished dialogue to export` }]);
  new Xoshiro128(seed).shuffle(dialogues);
  const entries = dialogues.map(d => {
    const vars = tasks.get(d.trial.itemHash)?.vars ?? {};
    return {
      item: {
        id: `d-${contentHash({ runId, seed, trial: d.trial.id }, 10)}`,
        task: Object.entries(vars).map(([k, v]) => `${k}: ${v}`).join('\n'),
        transcript: asDialog(d.messages),
      },
      trial: d.trial,
    };
  });
  const items = entries.map(e => e.item);
  const exportId = contentHash({ runId, seed, version: ev.version, ids: items.map(i => i.id) }, 12);
  return {
    items,
    columns,
    key: {
      kind: 'paideia.blind-key.v1', exportId, runId, seed,
      evaluation: { name: ev.name, version: ev.version },
      columns,
      items: entries.map(e => ({ id: e.item.id, trialId: e.trial.id, model: e.trial.modelAlias, spec: e.trial.modelSpec, taskId: e.trial.itemId, repeat: e.trial.repeat })),
    },
  };
}

/** The CSV experts fill in: one row per dialogue, one empty column per rubric field, then a comment. */
export function blindCsv(x: BlindExport): string {
  return formatCsv([
    [...FIXED_COLUMNS, ...x.columns.map(c => c.column), COMMENT_COLUMN],
    ...x.items.map(i => [i.id, i.task, i.transcript, ...x.columns.map(() => ''), '']),
  ]);
}

/** The rubric as Markdown, written beside a CSV export so experts know what each column means. */
export function blindRubric(x: BlindExport): string {
  return [
    `# Rubric (${x.key.evaluation.name})`,
    '',
    'Score every row of the CSV: one value per column below, on its scale. Leave a row empty to skip it. The comment column is optional.',
    '',
    ...x.columns.map(c => `- **${c.column}** (${c.dimension}; ${scaleText(c)})${c.description ? `: ${c.description}` : ''}`),
    '',
  ].join('\n');
}

/** Store the key in the run, so import needs no key file on the machine that holds the store. */
export async function storeBlindKey(store: Store, key: BlindKey): Promise<void> {
  await store.putArtifact(key.runId, BLIND_EXPORT_KIND, key.exportId, JSON.parse(JSON.stringify(key)) as JsonValue);
}
