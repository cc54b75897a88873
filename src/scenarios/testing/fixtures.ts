import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChatRequest } from '../../core/chat-model.js';
import { ConfigError } from '../../core/errors.js';
import { createMockModel, type MockChatModel } from '../../providers/testing/mock-model.js';

/** A fresh folder with these files (paths relative to it); returns the folder. */
export function scenarioDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-scenario-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The issues of the ConfigError a function throws (fails the test if it throws nothing else). */
export function issuesOf(fn: () => unknown): ConfigError['issues'] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

/**
 * A teacher/student pair in a keyword-ended loop, one judge with a weighted rubric. `extra` is
 * appended (later keys of the same block win in tests that rewrite it with replace()).
 */
export const LOOP_SCENARIO = `name: loop
globals:
  concurrency: 2
  recursion_limit: 20
  retry: { attempt: 1, interval: 0 }
models:
  tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }
  learner: { type: openai, model: learner-model, api_base: http://127.0.0.1:9/v1 }
  judge: { type: openai, model: judge-model, api_base: http://127.0.0.1:9/v1 }
agents:
  teacher:
    model: tutor
    prompt:
      - { role: system, content: "Tutor {persona} on: {problem}" }
    memory: { enable: true, keep_turns: 2 }
  student:
    model: learner
    prompt:
      - { role: system, content: "You are {persona}." }
    memory: { enable: false }
directions:
  - START -> teacher
  - teacher -> router:any_keyword_route(keywords=["<end>"], exists_to=END, else_to="student")
  - student -> teacher
tasks:
  mode: union
  start_prompt: "Help me with {problem}"
  content:
    persona: [Ana, Ben]
    problem: ["2x = 6", "x + 1 = 3"]
evaluation:
  name: guide
  model: judge
  format_mode: prompt
  prompt:
    - { role: system, content: "Score the tutor. Problem: {task.problem}" }
    - { role: user, content: "{messages.as_dialog()}" }
  format:
    - { field: clarity, type: int, min: 1, max: 5, dimension: Method, weight: 3 }
    - { field: warmth, type: int, min: 1, max: 5, dimension: Care, weight: 1 }
    - { field: comment, type: str }
`;

/** Role of a request as the runner sets it (agent name, or `judge`). */
export const roleOf = (r: ChatRequest) => r.context?.role ?? '?';

/**
 * Models for LOOP_SCENARIO that count their calls: the teacher ends after `teacherTurns` turns,
 * the student answers, the judge gives `judgeAnswer`.
 */
export function loopModels(o: { teacherTurns?: number; judgeAnswer?: string; onCall?: (r: ChatRequest, n: number) => void } = {}): Record<string, MockChatModel> {
  let n = 0;
  const count = (r: ChatRequest) => o.onCall?.(r, ++n);
  const teacherTurns = o.teacherTurns ?? 3;
  return {
    tutor: createMockModel(r => {
      count(r);
      const turn = r.context?.turn ?? 0;
      return turn + 1 >= teacherTurns ? `<think>done</think>Well done! <END>` : `Question ${turn + 1}?`;
    }, { provider: 'openai', modelId: 'tutor-model' }),
    learner: createMockModel(r => {
      count(r);
      return `Answer ${(r.context?.turn ?? 0) + 1}`;
    }, { provider: 'openai', modelId: 'learner-model' }),
    judge: createMockModel(r => {
      count(r);
      return o.judgeAnswer ?? '<json>{"clarity": 5, "warmth": 3, "comment": "fine"}</json>';
    }, { provider: 'openai', modelId: 'judge-model' }),
  };
}
