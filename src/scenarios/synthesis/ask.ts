import type { ChatMessage, ChatModel } from '../../core/chat-model.js';
import { PaideiaError } from '../../core/errors.js';
import { JSON_CLOSE, JSON_OPEN, extractJson } from '../judge/format.js';

/** A synthesis step whose model never gave a valid answer. Carries what was wrong and the last answer. */
export class SynthesisError extends PaideiaError {
  constructor(readonly step: string, readonly attempts: number, readonly problems: string[], readonly lastAnswer: string) {
    super(`synthesis: the ${step} was not valid after ${attempts} attempt(s): ${problems.join('; ')}. Last answer began: ${JSON.stringify(lastAnswer.slice(0, 300))}. Try a stronger model or more attempts.`);
    this.name = 'SynthesisError';
  }
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Numbers the calls of each step, so a scripted model (`context.turn`) answers the k-th call of a
 * step with its k-th scripted turn whatever the step's prompt says.
 */
export class CallCounter {
  private readonly counts = new Map<string, number>();
  next(step: string): number {
    const n = this.counts.get(step) ?? 0;
    this.counts.set(step, n + 1);
    return n;
  }
}

export interface AskJson {
  model: ChatModel;
  /** Step name: `metrics`, `questions`, `judge`, ...; the request's role is `synthesis:<step>`. */
  step: string;
  /** Words for the error message: "generator's metrics". */
  what: string;
  messages: ChatMessage[];
  attempts: number;
  calls: CallCounter;
}

/**
 * Ask for one JSON object between markers and check it; an answer that fails is shown its
 * problems and asked again, up to `attempts` calls; then SynthesisError.
 */
export async function askJson<T>(o: AskJson, check: (value: unknown) => Checked<T>): Promise<T> {
  const messages = [...o.messages];
  let problems: string[] = [];
  let raw = '';
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    const result = await o.model.generate({ messages, params: {}, context: { role: `synthesis:${o.step}`, turn: o.calls.next(o.step) } });
    raw = result.text;
    const parsed = extractJson(raw);
    const checked = parsed.ok ? check(parsed.value) : { ok: false as const, problems: [parsed.problem] };
    if (checked.ok) return checked.value;
    problems = checked.problems;
    messages.push(
      { role: 'assistant', content: raw },
      { role: 'user', content: `That answer was not valid: ${problems.join('; ')}. Answer again with one corrected JSON object between ${JSON_OPEN} and ${JSON_CLOSE}.` },
    );
  }
  throw new SynthesisError(o.what, o.attempts, problems, raw);
}

/** Text the generator wrote, made safe for a scenario prompt: braces would read as placeholders. */
export function literal(text: string): string {
  return text.replace(/\{/g, '{{').replace(/\}/g, '}}');
}

export const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
