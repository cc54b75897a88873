import { contentHash, type CallRecord, type ChatMessage, type ChatRequest, type Item, type Trial } from '../../core/index.js';
import type { ParsedTutorAnswer } from '../../scoring/tutor-edit/index.js';
import type { JudgeSetup, JudgingConfig } from './config.js';
import { formatRetryMessage, parseVerdict, rubricMessages } from './rubric.js';

/**
 * Judge calls live in the store's calls table like every other call, under a trial id derived from
 * the judged trial and the judge's alias. They are not planned trials: reports and resumes of the
 * run itself never see them, and their steps are the judge's format retries.
 */
export function judgeTrialId(trialId: string, judgeAlias: string): string {
  return `judge:${judgeAlias}:${trialId}`;
}

/** What the stored calls say about one judge's judgment of one explanation. */
export type JudgeOutcome =
  | { kind: 'verdict'; pass: boolean; reason: string; steps: number }
  /** The call failed after every attempt (a provider error): the explanation stays unscored. */
  | { kind: 'error'; message: string; steps: number }
  /** No answer fitted `{pass, reason}` after every format retry: unscored. */
  | { kind: 'unparseable'; problem: string; steps: number }
  /** The next call to make (or, offline, the judgment still missing). */
  | { kind: 'call'; step: number; request: ChatRequest; requestHash: string; retryOf?: CallRecord };

/** Stored judge calls of a run: by judge trial id, then step, every record in insertion order. */
export type JudgeCallIndex = Map<string, CallRecord[][]>;

export function indexJudgeCalls(calls: CallRecord[]): JudgeCallIndex {
  const index: JudgeCallIndex = new Map();
  for (const c of calls) {
    if (!c.trialId.startsWith('judge:')) continue;
    const steps = index.get(c.trialId) ?? index.set(c.trialId, []).get(c.trialId)!;
    (steps[c.step] ??= []).push(c);
  }
  return index;
}

export function addJudgeCall(index: JudgeCallIndex, c: CallRecord): void {
  const steps = index.get(c.trialId) ?? index.set(c.trialId, []).get(c.trialId)!;
  (steps[c.step] ??= []).push(c);
}

/** The cache key of a judge request: model, messages and parameters, as the engine's. */
export function judgeRequestHash(judge: JudgeSetup, request: ChatRequest): string {
  return contentHash({ model: judge.spec, messages: request.messages, params: request.params });
}

/**
 * Walk a judgment's stored steps. Each step's request is rebuilt from the item, the tutor's answer
 * and the judge's earlier replies; only a stored record with exactly that request counts, so a
 * changed judge, rubric or parameter is asked again rather than read from a stale record. The
 * newest matching record of a step wins (a retried error is superseded by its retry).
 */
export function resolveJudgment(a: {
  trial: Trial; item: Item; answer: ParsedTutorAnswer; judge: JudgeSetup; config: JudgingConfig;
  index: JudgeCallIndex; retryErrorsAt?: ReadonlySet<number>;
}): JudgeOutcome {
  const records = a.index.get(judgeTrialId(a.trial.id, a.judge.alias)) ?? [];
  let messages: ChatMessage[] = rubricMessages(a.item, a.answer);
  for (let step = 0; step <= a.config.formatRetries; step++) {
    const request: ChatRequest = {
      messages, params: a.config.params,
      context: { trialId: a.trial.id, itemId: a.trial.itemId, repeat: a.trial.repeat, turn: step, role: `judge:${a.judge.alias}` },
    };
    const requestHash = judgeRequestHash(a.judge, request);
    const stored = [...(records[step] ?? [])].reverse().find(r => r.requestHash === requestHash);
    if (!stored) return { kind: 'call', step, request, requestHash };
    if (stored.status === 'error') {
      if (a.retryErrorsAt?.has(step)) return { kind: 'call', step, request, requestHash, retryOf: stored };
      return { kind: 'error', message: stored.error?.message ?? 'judge call failed', steps: step + 1 };
    }
    const text = stored.result?.text ?? '';
    const read = parseVerdict(text);
    if (read.ok) return { kind: 'verdict', pass: read.verdict.pass, reason: read.verdict.reason, steps: step + 1 };
    if (step === a.config.formatRetries) return { kind: 'unparseable', problem: read.problem, steps: step + 1 };
    messages = [...messages, { role: 'assistant', content: text }, formatRetryMessage(read.problem)];
  }
  throw new Error('unreachable: formatRetries must be >= 0');
}
