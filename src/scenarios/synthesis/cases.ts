import type { ChatMessage, ChatModel } from '../../core/chat-model.js';
import { createSemaphore } from '../../providers/shared/semaphore.js';
import { JSON_CLOSE, JSON_OPEN, checkAnswer, extractJson, promptModeInstruction } from '../judge/format.js';
import type { FormatField } from '../types.js';
import { askJson, isText, type CallCounter, type Checked } from './ask.js';
import { REASON_FIELD } from './metrics.js';
import { SCALE, type Case, type CaseScores, type Metric, type TestQuestion } from './types.js';

/** The starting prompt for test questions; evolution rewrites it, the format rules stay fixed. */
export function initialGenerationPrompt(description: string): string {
  return [
    `Write test questions that learners in this scenario would bring to an AI teacher:\n${description}`,
    'Give every question a different persona (age, level, background, language, attitude, special need), and cover easy, typical and hard requests.',
  ].join('\n');
}

export function checkQuestions(value: unknown, n: number, idPrefix: string): Checked<TestQuestion[]> {
  const list = (value as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(list)) return { ok: false, problems: ['expected {"questions": [...]}'] };
  const problems: string[] = [];
  if (list.length < n) problems.push(`expected ${n} questions, got ${list.length}`);
  const out: TestQuestion[] = [];
  list.slice(0, n).forEach((q: unknown, i) => {
    const r = (q ?? {}) as Record<string, unknown>;
    for (const key of ['persona', 'internal', 'user'] as const) if (!isText(r[key])) problems.push(`questions[${i}].${key} must be non-empty text`);
    if (isText(r.internal) && isText(r.user) && r.internal.trim() === r.user.trim()) problems.push(`questions[${i}]: internal must add the format constraints that user leaves out`);
    if (isText(r.persona) && isText(r.internal) && isText(r.user)) out.push({ id: `${idPrefix}${i + 1}`, persona: r.persona.trim(), internal: r.internal.trim(), user: r.user.trim() });
  });
  if (new Set(out.map(q => q.persona.toLowerCase())).size < out.length) problems.push('every question needs a different persona');
  return problems.length ? { ok: false, problems } : { ok: true, value: out };
}

/** N questions from the current generation prompt; ids are `<prefix><i>`. */
export async function generateQuestions(o: { generator: ChatModel; prompt: string; n: number; idPrefix: string; attempts: number; calls: CallCounter }): Promise<TestQuestion[]> {
  return askJson({
    model: o.generator, step: 'questions', what: "generator's question set", attempts: o.attempts, calls: o.calls,
    messages: [{ role: 'user', content: [
      o.prompt,
      `Write exactly ${o.n} questions. For each give: persona (who asks), internal (the question plus the format constraints a good answer must meet: length, structure, level, what must be included) and user (the same question as the learner would really ask it, with no format constraints).`,
      `Answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}: {"questions": [{"persona": ..., "internal": ..., "user": ...}]}`,
    ].join('\n\n') }],
  }, v => checkQuestions(v, o.n, o.idPrefix));
}

/** The answerer sees the scenario, the persona and the user-facing question only. */
export async function answerQuestions(o: { answerer: ChatModel; description: string; questions: TestQuestion[]; concurrency: number; calls: CallCounter }): Promise<string[]> {
  const slots = createSemaphore(o.concurrency);
  const limit = <T>(task: () => Promise<T>) => slots.run(task);
  return Promise.all(o.questions.map(q => {
    const turn = o.calls.next('answer');
    return limit(async () => (await o.answerer.generate({
      messages: [{ role: 'system', content: `${o.description}\nThe learner: ${q.persona}` }, { role: 'user', content: q.user }],
      params: {}, context: { role: 'synthesis:answer', turn },
    })).text);
  }));
}

/** The rubric as a scenario `format`: one 1-5 int per metric, with dimension and weight, then a reason. */
export function formatOf(metrics: ReadonlyArray<Metric>): FormatField[] {
  return [
    ...metrics.map(m => ({ field: m.field, type: 'int' as const, min: SCALE.min, max: SCALE.max, dimension: m.dimension, weight: m.weight, description: `${m.name}: ${m.description}` })),
    { field: REASON_FIELD, type: 'str' as const, description: 'One or two sentences on the main strengths and weaknesses.' },
  ];
}

/** The judge's instructions: the same text in the loop and in the synthesised scenario. */
export function rubricText(description: string, metrics: ReadonlyArray<Metric>): string {
  return [
    'You are an expert teacher evaluating how an AI teacher handled a learner.',
    `Scenario: ${description}`,
    `Score each metric from ${SCALE.min} (poor) to ${SCALE.max} (excellent), judging the answer against the requirements of the task:`,
    ...metrics.map(m => `- ${m.field} (${m.name}; ${m.dimension}): ${m.description}\n  Scores high: ${m.positive}\n  Scores low: ${m.negative}`),
  ].join('\n');
}

/** The judge's view of a case, in the shape `{messages.as_dialog()}` gives a scenario judge. */
export function caseText(persona: string, internal: string, dialog: string): string {
  return `Learner: ${persona}\nWhat the learner needs, with the requirements of a good answer: ${internal}\n\nDialogue:\n${dialog}`;
}

/**
 * Score cases with the current metrics. An answer that never fits the format leaves the case
 * unscored (null per metric): a judge failure is not a low score.
 */
export async function scoreCases(o: {
  judge: ChatModel; description: string; metrics: Metric[]; cases: ReadonlyArray<Case>; attempts: number; concurrency: number; calls: CallCounter;
  /** Told the last raw answer and its problems of every case left unscored. */
  onUnscored?: (raw: string, problems: string[]) => void;
}): Promise<CaseScores[]> {
  const format = formatOf(o.metrics);
  const system = rubricText(o.description, o.metrics);
  const slots = createSemaphore(o.concurrency);
  const limit = <T>(task: () => Promise<T>) => slots.run(task);
  return Promise.all(o.cases.map(c => {
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: `${caseText(c.question.persona, c.question.internal, `user: ${c.question.user}\nteacher: ${c.answer}`)}\n\n${promptModeInstruction(format)}` },
    ];
    const turns = Array.from({ length: o.attempts }, () => o.calls.next('judge'));
    return limit(async () => {
      // Turns are numbered before the calls start, so concurrency cannot reorder a scripted judge.
      let raw = '';
      let problems: string[] = [];
      for (const turn of turns) {
        const text = (await o.judge.generate({ messages, params: {}, context: { role: 'synthesis:judge', turn } })).text;
        const parsed = extractJson(text);
        const checked = parsed.ok ? checkAnswer(parsed.value, format) : { ok: false as const, problems: [parsed.problem] };
        if (checked.ok) return Object.fromEntries(o.metrics.map(m => [m.field, checked.value[m.field] as number]));
        raw = text;
        problems = checked.problems;
        messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That answer did not fit the format: ${checked.problems.join('; ')}. Answer again between ${JSON_OPEN} and ${JSON_CLOSE}.` });
      }
      o.onUnscored?.(raw, problems);
      return Object.fromEntries(o.metrics.map(m => [m.field, null]));
    });
  }));
}
