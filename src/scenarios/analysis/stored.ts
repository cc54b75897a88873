import { commandHint } from '../../core/command-hint.js';
import { ConfigError } from '../../core/errors.js';
import type { Judgment } from '../../core/judgment.js';
import { parseModelSpec } from '../../core/model-spec.js';
import type { Score } from '../../core/scorer.js';
import type { Store } from '../../core/store.js';
import type { Trial } from '../../core/trial.js';
import { DIALOGUE_KIND, SCENARIO_KIND, type DialogueMeta } from '../dialogue.js';
import { resolveFormat } from '../judge/fields.js';
import { scoredFields } from '../judge/score.js';
import type { ScenarioFile } from '../schema.js';
import type { Aggregation, FormatField, ScenarioTask, ScoredField } from '../types.js';
import { modelFamily, type ModelFamily } from '../../providers/family.js';

/** The `scenario`/`config` artifact a scenario run writes (see run.ts). */
export interface StoredScenarioConfig {
  name: string;
  file: string;
  hash: string;
  target: string;
  evaluationVersion: string | null;
  config: ScenarioFile;
  variants: Array<{ label: string; models: Record<string, { spec: string; apiBase?: string }>; families?: Record<string, string> }>;
  tasks: ScenarioTask[];
}

/** The evaluation block of a stored run, as the analyses need it. */
export interface StoredEvaluation {
  name: string;
  version: string;
  judges: string[];
  aggregation: Aggregation;
  repeats: number;
  format: FormatField[];
  scored: ScoredField[];
}

/** Everything the report, the blind export and the import read: the store only, never a model. */
export interface ScenarioRunData {
  runId: string;
  config: StoredScenarioConfig;
  evaluation: StoredEvaluation | null;
  trials: Trial[];
  metas: Map<string, DialogueMeta>;
  /** Scores made under the current evaluation version (judges, panel, humans). */
  scores: Score[];
  /** Spec and family of a model alias in the variant a trial ran with. */
  modelOf(trial: Trial, alias: string): { spec: string; family: ModelFamily };
  /** Model alias of the agent under test. */
  targetAlias: string;
  /** Whether the model under test in a variant declared itself a baseline. */
  isBaseline(variant: string): boolean;
  /** Every stored judgment of the current evaluation version. */
  judgments: Judgment[];
}

export async function loadScenarioRun(store: Store, runId: string): Promise<ScenarioRunData> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
  const config = (await store.listArtifacts(runId, SCENARIO_KIND)).find(a => a.key === 'config')?.value as StoredScenarioConfig | undefined;
  if (!config) throw new ConfigError([{ field: 'run-id', message: `run "${runId}" is not a scenario run; report it with: ${commandHint(['report', runId, '--format', 'md', '--out', '-'], store.url)}` }]);
  const raw = config.config.evaluation;
  const version = config.evaluationVersion;
  const evaluation: StoredEvaluation | null = raw && version ? {
    name: raw.name ?? 'evaluation',
    version,
    judges: raw.model !== undefined ? [raw.model] : raw.judges?.models ?? [],
    aggregation: raw.judges?.aggregation ?? 'mean',
    repeats: raw.repeats ?? 1,
    format: resolveFormat(raw.format, raw.scale),
    scored: scoredFields(resolveFormat(raw.format, raw.scale)),
  } : null;
  const [allTrials, metaArtifacts, allScores, allJudgments] = await Promise.all([
    store.listTrials(runId), store.listArtifacts(runId, DIALOGUE_KIND), store.listScores(runId), store.listJudgments(runId),
  ]);
  // Judge trials are read through their judgments; the report's trials are the dialogues.
  const trials = allTrials.filter(t => t.target === undefined);
  const variants = new Map(config.variants.map(v => [v.label, v]));
  const fileModels = config.config.models ?? {};
  const targetAlias = config.config.agents[config.target]?.model ?? config.target;
  return {
    runId,
    config,
    evaluation,
    trials,
    metas: new Map(metaArtifacts.map(a => [a.key, a.value as unknown as DialogueMeta])),
    scores: version ? allScores.filter(s => s.scorer.version === version) : [],
    judgments: version ? allJudgments.filter(j => j.promptVariant === version) : [],
    targetAlias,
    isBaseline(label) {
      const variant = variants.get(label) ?? config.variants[0];
      const engineAlias = config.variants.length > 1 ? `${label}/${targetAlias}` : targetAlias;
      if (run.config.baselines) return run.config.baselines.includes(engineAlias);
      const spec = variant?.models[targetAlias]?.spec;
      return spec !== undefined && parseModelSpec(spec).provider === 'baseline';
    },
    modelOf(trial, alias) {
      const variant = variants.get(trial.modelAlias) ?? config.variants[0];
      const spec = variant?.models[alias]?.spec ?? `${fileModels[alias]?.type ?? 'openai'}:${fileModels[alias]?.model ?? alias}`;
      // Runs stored before `families` existed fall back to the table.
      return { spec, family: modelFamily(spec, variant?.families?.[alias]) };
    },
  };
}

/** Mean of a non-empty list. */
export function mean(xs: ReadonlyArray<number>): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Sample variance (n - 1 in the denominator) of at least two values. */
export function sampleVariance(xs: ReadonlyArray<number>): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

/** NaN and infinities become null: JSON has no NaN, and a reader should see "undefined", not 0. */
export function finite(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x;
}
