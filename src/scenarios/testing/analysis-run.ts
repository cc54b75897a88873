import { parseModelSpec } from '../../core/model-spec.js';
import type { Store } from '../../core/store.js';
import { createMockModel } from '../../providers/testing/mock-model.js';
import { parseScenario } from '../load.js';
import { runScenario } from '../run.js';

/**
 * A single-turn scenario run for the analyses: the tutor swept over an OpenAI and an Anthropic
 * model, two judges of those two families judging each dialogue twice, and judgments chosen by
 * hand so that variances and self-preference can be computed on paper.
 */
export const ANALYSIS_SCENARIO = `name: analysis
globals: { concurrency: 1, retry: { attempt: 1, interval: 0 } }
models:
  tutor: { type: openai, model: gpt-4o }
  j_openai: { type: openai, model: house-judge-v1, family: openai }
  j_anthropic: { type: anthropic, model: claude-sonnet-4 }
agents:
  teacher:
    model: tutor
    prompt: [{ role: system, content: "Explain {topic}." }]
directions: [START -> teacher, teacher -> END]
tasks:
  mode: iter
  content: [{ id: t1, topic: fractions }, { id: t2, topic: ratios }]
evaluation:
  name: rubric
  judges: { models: [j_openai, j_anthropic], aggregation: mean }
  repeats: 2
  format_mode: prompt
  prompt: [{ role: user, content: "{messages.as_dialog()}" }]
  format:
    - { field: a, type: int, min: 0, max: 10, dimension: A, weight: 1, description: "How clear the explanation is." }
    - { field: b, type: int, min: 0, max: 10, dimension: B, weight: 1 }
`;

export const GPT_TUTOR = 'openai:gpt-4o';
export const CLAUDE_TUTOR = 'anthropic:claude-3-5-haiku';

/**
 * The value of a and b (equal, so every dimension score equals the weighted score a / 10)
 * by judge, then the tutor variant, task and repeat.
 */
export const JUDGMENTS: Record<string, Record<string, Record<string, [number, number]>>> = {
  j_openai: { [GPT_TUTOR]: { t1: [8, 6], t2: [9, 9] }, [CLAUDE_TUTOR]: { t1: [5, 5], t2: [4, 6] } },
  j_anthropic: { [GPT_TUTOR]: { t1: [5, 5], t2: [6, 6] }, [CLAUDE_TUTOR]: { t1: [7, 9], t2: [8, 8] } },
};

export async function analysisRun(store: Store, text = ANALYSIS_SCENARIO): Promise<string> {
  const scenario = parseScenario('/tmp/analysis.yaml', text, {
    env: {}, models: [`tutor=${GPT_TUTOR}`, `tutor=${CLAUDE_TUTOR}`].map(m => parseModelSpec(m)),
  });
  const { run } = await runScenario({
    scenario, store,
    createModel: (m, variant) => createMockModel(r => {
      if (m.alias === 'tutor') return `Explanation ${variant.label === GPT_TUTOR ? 'one' : 'two'}: ${r.messages[0]!.content}`;
      const v = JUDGMENTS[m.alias]![variant.label]![r.context!.itemId!]![r.context!.repeat!]!;
      return `<json>{"a": ${v}, "b": ${v}}</json>`;
    }, { provider: m.spec.provider, modelId: m.spec.model }),
  });
  return run.id;
}
