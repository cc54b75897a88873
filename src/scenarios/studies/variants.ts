import { ConfigError } from '../../core/errors.js';
import type { Evaluation, Scenario, ScenarioModel } from '../types.js';
import { variantScenario, type JudgeVariant } from './rejudge.js';

/** The judge variants of an ablation (Elmes+): each changes one thing the judge is given. */
export const ABLATIONS = [
  'file', 'reasoning-on', 'reasoning-off', 'temperature-0', 'temperature-default', 'anchors-on', 'anchors-off', 'mode-tool', 'mode-prompt',
] as const;
export type Ablation = (typeof ABLATIONS)[number];

const REASON_FIRST = 'Before you give the scores, reason through each criterion step by step.';
const SCORES_ONLY = 'Give the scores only, without explaining them.';

type Change = { evaluation?: Partial<Evaluation>; judgeModel?: (m: ScenarioModel) => ScenarioModel };

/**
 * What each variant changes:
 * - `file`: the evaluation as the file has it (its stored judgments are reused);
 * - `reasoning-on`: the judge is asked to reason through each criterion before scoring;
 * - `reasoning-off`: the judge is asked for scores only, and the format loses its text fields;
 * - `temperature-0` / `temperature-default`: the judges' temperature set to 0 / left to the model;
 * - `anchors-on` / `anchors-off`: the file's expert-scored examples shown / not shown;
 * - `mode-tool` / `mode-prompt`: the answer as a forced function call / JSON in the text.
 * A variant that changes nothing in this file is the file's evaluation (no new call).
 */
export function ablationVariant(scenario: Scenario, name: Ablation): JudgeVariant {
  const ev = scenario.evaluation!;
  const ask = (text: string): Evaluation['prompt'] => [...ev.prompt, { role: 'user', content: text }];
  const changes: Record<Ablation, Change | undefined> = {
    'file': undefined,
    'reasoning-on': { evaluation: { prompt: ask(REASON_FIRST) } },
    'reasoning-off': { evaluation: { prompt: ask(SCORES_ONLY), format: ev.format.filter(f => f.type !== 'str') } },
    'temperature-0': ev.judges.every(j => scenario.models.get(j)?.params.temperature === 0) ? undefined
      : { judgeModel: m => ({ ...m, params: { ...m.params, temperature: 0 } }) },
    'temperature-default': ev.judges.every(j => scenario.models.get(j)?.params.temperature === undefined) ? undefined
      : { judgeModel: m => ({ ...m, params: withoutTemperature(m.params) }) },
    'anchors-on': undefined,
    'anchors-off': ev.anchors.length === 0 ? undefined : { evaluation: { anchors: [] } },
    'mode-tool': ev.formatMode === 'tool' ? undefined : { evaluation: { formatMode: 'tool' } },
    'mode-prompt': ev.formatMode === 'prompt' ? undefined : { evaluation: { formatMode: 'prompt' } },
  };
  if (name === 'anchors-on' && ev.anchors.length === 0) {
    throw new ConfigError([{ file: scenario.file, field: 'evaluation.anchors', message: 'anchors-on needs expert-scored anchors in the file (evaluation.anchors); leave the variant out or add anchors' }]);
  }
  return variantScenario(scenario, name, changes[name] ?? {});
}

function withoutTemperature(params: ScenarioModel['params']): ScenarioModel['params'] {
  const { temperature: _dropped, ...rest } = params;
  return rest;
}

/** `--variants a,b,...` checked against ABLATIONS (exit 2 naming the flag). */
export function parseAblations(list: string | undefined): Ablation[] {
  if (!list) return [...ABLATIONS.filter(a => a !== 'anchors-on')];
  const names = list.split(',').map(s => s.trim()).filter(Boolean);
  const bad = names.filter(n => !(ABLATIONS as readonly string[]).includes(n));
  if (bad.length) throw new ConfigError([{ field: '--variants', message: `unknown variant ${bad.map(b => `"${b}"`).join(', ')}; known: ${ABLATIONS.join(', ')}` }]);
  return [...new Set(names)] as Ablation[];
}
