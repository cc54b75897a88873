import { ConfigError } from '../../core/index.js';
import { meanInterval } from '../../stats/inference/mean-interval.js';
import { SCENARIO_INTERVAL, type Estimate } from '../analysis/estimate.js';
import { loadScenarioRun, mean } from '../analysis/stored.js';
import { ablationRows, stabilityRows, type AblationRow, type StabilityRow } from './analyse.js';
import { rejudge, variantScenario, type RejudgeOptions } from './rejudge.js';
import { ablationVariant, type Ablation } from './variants.js';

export { ABLATIONS, parseAblations, type Ablation } from './variants.js';
export type { AblationRow, StabilityRow } from './analyse.js';

/** What a study is run with: rejudge's options, its variants aside. */
type StudyOptions = Omit<RejudgeOptions, 'variants'>;

/** What a study did: the run it judged again, and its judge trials that failed or are left. */
export interface StudyRun { runId: string; failed: number; pending: number; judgments: number }

export interface StabilityStudy extends StudyRun {
  study: 'stability';
  /** Judgments per judge and dialogue. */
  judgeRepeats: number;
  experts: boolean;
  rows: StabilityRow[];
}

/**
 * Stability (Elmes+ Table 2): every stored dialogue judged `judgeRepeats` times by every judge,
 * as judgments of their own (they never change the scenario report), and the variance of the
 * repeats per judge x model under test x dimension, beside the experts' variance when imported.
 */
export async function stabilityStudy(o: StudyOptions & { judgeRepeats: number }): Promise<StabilityStudy> {
  if (o.judgeRepeats < 2) throw new ConfigError([{ field: '--judge-repeats', message: 'a variance needs at least 2 repeats; Elmes+ uses 10' }]);
  const variant = variantScenario(o.scenario, 'stability', { evaluation: { repeats: o.judgeRepeats } });
  const done = await rejudge({ ...o, variants: [variant] });
  const data = await loadScenarioRun(o.store, done.runId);
  const judgments = done.judgments.get('stability')!;
  return {
    study: 'stability', runId: done.runId, failed: done.failed, pending: done.pending, judgments: judgments.length,
    judgeRepeats: o.judgeRepeats, experts: data.scores.some(s => s.scorer.name.startsWith('human:')), rows: stabilityRows(data, judgments),
  };
}

export interface AblationStudy extends StudyRun {
  study: 'ablation';
  /** Per variant: its judgments, and its mean score over dialogues (all judges and repeats averaged per dialogue). */
  variants: Array<{ variant: Ablation; version: string; judgments: number; score: Estimate }>;
  experts: boolean;
  /** Per variant and dimension, against the experts' mean; empty without expert scores. */
  rows: AblationRow[];
}

/** Judge ablations: the same stored dialogues judged under each variant, only the judges called. */
export async function ablationStudy(o: StudyOptions & { variants: Ablation[] }): Promise<AblationStudy> {
  const variants = o.variants.map(name => ablationVariant(o.scenario, name));
  const done = await rejudge({ ...o, variants });
  const data = await loadScenarioRun(o.store, done.runId);
  const rows = ablationRows(data, done.judgments);
  return {
    study: 'ablation', runId: done.runId, failed: done.failed, pending: done.pending,
    judgments: [...done.judgments.values()].reduce((n, js) => n + js.length, 0),
    variants: variants.map(v => {
      const js = done.judgments.get(v.name)!;
      const perDialogue = new Map<string, number[]>();
      for (const j of js) if (j.value !== null) (perDialogue.get(j.targetTrialId) ?? perDialogue.set(j.targetTrialId, []).get(j.targetTrialId)!).push(j.value);
      return { variant: v.name as Ablation, version: v.scenario.evaluation!.version, judgments: js.length, score: meanInterval([...perDialogue.values()].map(mean), SCENARIO_INTERVAL) };
    }),
    experts: data.scores.some(s => s.scorer.name.startsWith('human:')),
    rows,
  };
}
