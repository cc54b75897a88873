import { stringify } from 'yaml';
import type { ModelSpec } from '../../core/model-spec.js';
import { literal } from './ask.js';
import { caseText, formatOf, rubricText } from './cases.js';
import type { Metric, TestQuestion } from './types.js';

export interface ScenarioYamlInput {
  name: string;
  description: string;
  metrics: Metric[];
  questions: TestQuestion[];
  answerer: ModelSpec;
  judge: ModelSpec;
  /** `script:` entries for baseline:script models, relative to the YAML file. */
  scripts?: { answerer?: string; judge?: string };
  /** A comment at the top: where the file came from. */
  header?: string;
}

/** Alias of a synthesis model in the scenario: its own alias when it has one, else the role. */
function aliasOf(spec: ModelSpec, role: string, taken?: string): string {
  const own = spec.alias !== spec.spec && /^[A-Za-z0-9_.-]+$/.test(spec.alias) ? spec.alias : role;
  return own === taken ? `${own}_${role}` : own;
}

/**
 * The synthesised rubric as a single-turn scenario: the answerer as the teacher, the tasks the
 * best round's questions (the learner asks the user-facing version; the judge sees the internal
 * one), and the metrics as a weighted 1-5 format, judged in prompt mode with the same
 * instructions the loop used. Generated text is escaped so that no brace reads as a placeholder.
 */
export function scenarioYaml(i: ScenarioYamlInput): string {
  const teacher = aliasOf(i.answerer, 'teacher');
  const judge = aliasOf(i.judge, 'judge', teacher);
  const model = (spec: ModelSpec, script?: string) => ({ type: spec.provider, model: spec.model, ...(script ? { script } : {}) });
  const doc = {
    name: i.name,
    description: i.description,
    globals: { concurrency: 4, retry: { attempt: 3, interval: 2 } },
    models: { [teacher]: model(i.answerer, i.scripts?.answerer), [judge]: model(i.judge, i.scripts?.judge) },
    agents: {
      teacher: { model: teacher, prompt: [{ role: 'system', content: `${literal(i.description)}\nThe learner: {persona}` }] },
    },
    directions: ['START -> teacher', 'teacher -> END'],
    tasks: {
      mode: 'iter',
      start_prompt: { role: 'user', content: '{question}' },
      content: i.questions.map(q => ({ id: q.id, persona: q.persona, question: q.user, internal: q.internal })),
    },
    evaluation: {
      name: 'rubric',
      model: judge,
      format_mode: 'prompt',
      prompt: [
        { role: 'system', content: literal(rubricText(i.description, i.metrics)) },
        { role: 'user', content: caseText('{task.persona}', '{task.internal}', '{messages.as_dialog()}') },
      ],
      format: formatOf(i.metrics),
    },
  };
  const header = (i.header ?? '').split('\n').filter(Boolean).map(l => `# ${l}`).join('\n');
  return `${header ? `${header}\n` : ''}${stringify(doc, { lineWidth: 0 })}`;
}
