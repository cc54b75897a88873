import type { Score, ScorerRef, StoredError, Store, Trial, TrialPage } from '../core/index.js';
import { EXPLANATION_SCORER } from '../suites/judging/score.js';
import type { ItemResult } from './aggregate.js';
import { itemEntries, type ItemEntry } from './run-items.js';
import { stepCosts, type StepCosts } from './step-costs.js';

/** Trials read per page: what a report holds of per-trial rows at once, however large the run. */
const PAGE = 5000;

/** A trial whose newest record of some step is an error (the first such step's), for the failures table. */
export interface FailedTrial {
  index: number;
  id: string;
  model: string;
  test: string;
  error: StoredError | undefined;
}

/** What a report needs of a run, read a page of trials at a time and kept as per-item aggregates. */
export interface ReportRows {
  items: ReadonlyMap<string, ItemEntry>;
  /** Per model, test and item, in the order of each one's first trial by (repeat, plan index). */
  results: ItemResult[];
  /** Tests of the trials under test (judges left out), sorted. */
  tests: string[];
  /** Languages of each test's items, sorted. */
  languages: Map<string, string[]>;
  /** Trials per `model\0test` and per `model\0test\0language`. */
  trialCount: Map<string, number>;
  /** By plan index. */
  failedTrials: FailedTrial[];
  /** Explanation scores (in score order), the trials they score and those trials' last answers. */
  explanation: { scores: Score[]; trials: Map<string, Trial>; answers: Map<string, string> };
  costs: StepCosts;
}

interface StepRecord { seq: number; costUsd: number; status: 'ok' | 'error'; text: string | undefined; error: StoredError | undefined }
/**
 * One trial of an item result, kept until every page is read; answers and reasons only of public
 * items. `scored` is false for a trial without a score yet (pending).
 */
interface Entry {
  repeat: number; index: number; costUsd: number; failed: boolean;
  scored: boolean; value: number | null; scorer: ScorerRef | undefined; reason: string | undefined; answer: string | undefined;
}
/** An item result being read: most items have one trial per model, so the first is held apart from the rest. */
interface Pending { model: string; test: string; entry: ItemEntry; first: Entry; more: Entry[] | undefined }

/**
 * Read a run for its report: items once, then trials a page at a time with their calls and scores,
 * folded into per-item results as the report has always computed them (the newest record of each
 * step decides it, a step costs every call it made, the headline scorer's score of each repeat).
 * Memory grows with the run's items, not with its trials, calls or answers.
 */
export async function readReportRows(store: Store, runId: string, headline: ReadonlyMap<string, string>, pageSize = PAGE): Promise<ReportRows> {
  const items = await itemEntries(store, runId, pageSize);
  const costs = stepCosts();
  const pending = new Map<string, Map<ItemEntry, Pending>>();
  const tests = new Set<string>();
  const languages = new Map<string, Set<string>>();
  const trialCount = new Map<string, number>();
  const count = (k: string) => trialCount.set(k, (trialCount.get(k) ?? 0) + 1);
  const failedTrials: FailedTrial[] = [];
  const explanation = { scores: [] as Score[], trials: new Map<string, Trial>(), answers: new Map<string, string>() };

  const absorb = (page: TrialPage) => {
    const steps = new Map<string, StepRecord[]>();
    for (const c of page.calls) {
      const list = steps.get(c.trialId) ?? steps.set(c.trialId, []).get(c.trialId)!;
      const earlier = list[c.step];
      list[c.step] = { seq: c.seq, costUsd: c.costUsd + (earlier?.costUsd ?? 0), status: c.status, text: c.text, error: c.error };
    }
    const trialOf = new Map(page.trials.map(t => [t.id, t]));
    const scoresOf = new Map<string, Score[]>();
    for (const s of page.scores) {
      (scoresOf.get(s.trialId) ?? scoresOf.set(s.trialId, []).get(s.trialId)!).push(s);
      if (s.scorer.name !== EXPLANATION_SCORER) continue;
      explanation.scores.push(s);
      const t = trialOf.get(s.trialId);
      if (t && t.target === undefined) explanation.trials.set(t.id, t);
    }
    for (const [trialId, list] of steps) {
      const t = trialOf.get(trialId);
      const bySeq = list.filter(s => s !== undefined).sort((a, b) => a.seq - b.seq);
      for (const s of bySeq) costs.add(s.seq, s.costUsd, t === undefined ? undefined : t.target !== undefined ? { judge: true } : { model: t.modelAlias });
      if (explanation.trials.has(trialId)) {
        const answered = bySeq.filter(s => s.status === 'ok' && s.text !== undefined).at(-1);
        if (answered) explanation.answers.set(trialId, answered.text!);
      }
    }
    for (const t of page.trials) {
      if (t.target !== undefined) continue; // judges are reported through the explanation scores
      tests.add(t.test);
      const entry = items.get(t.itemHash);
      const language = entry?.item.language;
      if (language !== undefined) (languages.get(t.test) ?? languages.set(t.test, new Set()).get(t.test)!).add(language);
      count(`${t.modelAlias}\u0000${t.test}`);
      count(`${t.modelAlias}\u0000${t.test}\u0000${language ?? ''}`);
      const list = steps.get(t.id) ?? [];
      const failed = list.find(c => c?.status === 'error');
      if (failed) failedTrials.push({ index: t.index, id: t.id, model: t.modelAlias, test: t.test, error: failed.error });
      if (!entry) continue;
      const cell = `${t.modelAlias}\u0000${t.test}`;
      const results = pending.get(cell) ?? pending.set(cell, new Map()).get(cell)!;
      const ts = scoresOf.get(t.id) ?? [];
      const score = ts.find(s => s.scorer.name === headline.get(t.test)) ?? ts[0];
      const whole = entry.item.visibility === 'public';
      const e: Entry = {
        repeat: t.repeat, index: t.index, costUsd: trialCost(list), failed: failed !== undefined, scored: score !== undefined,
        value: score?.value ?? null, scorer: score?.scorer, reason: whole ? score?.reason : undefined, answer: whole ? list.at(-1)?.text : undefined,
      };
      const r = results.get(entry);
      if (!r) results.set(entry, { model: t.modelAlias, test: t.test, entry, first: e, more: undefined });
      else (r.more ??= []).push(e);
    }
  };

  for (let afterId: string | undefined; ;) {
    const page = await store.readTrialPage(runId, { limit: pageSize, ...(afterId !== undefined ? { afterId } : {}) });
    absorb(page);
    if (page.trials.length < pageSize) break;
    afterId = page.trials.at(-1)!.id;
  }
  failedTrials.sort((a, b) => a.index - b.index);
  const read = [...pending.values()].flatMap(m => [...m.values()]);
  // Only `read` holds them now, so settle can let each go once its result is made.
  pending.clear();
  return {
    items, results: settle(read), tests: [...tests].sort(),
    languages: new Map([...languages].map(([test, ls]) => [test, [...ls].sort()])), trialCount, failedTrials, explanation, costs: costs.sorted(),
  };
}

/** A trial's cost: its steps' costs added in the order their newest calls were stored. */
function trialCost(steps: ReadonlyArray<StepRecord | undefined>): number {
  let sum = 0;
  for (const s of steps.filter(x => x !== undefined).sort((a, b) => a.seq - b.seq)) sum += s.costUsd;
  return sum;
}

/** Each item result from its trials by (repeat, plan index): failed ones counted apart, the rest scored or unscored. */
function settle(pending: Pending[]): ItemResult[] {
  const byPlan = (a: Entry, b: Entry) => a.repeat - b.repeat || a.index - b.index;
  for (const p of pending) {
    if (!p.more) continue;
    const all = [p.first, ...p.more].sort(byPlan);
    p.first = all[0]!;
    p.more = all.slice(1);
  }
  pending.sort((a, b) => byPlan(a.first, b.first));
  const out: ItemResult[] = [];
  for (const [k, p] of pending.entries()) {
    const r: ItemResult = {
      model: p.model, test: p.test, item: p.entry.item, itemHash: p.entry.hash, value: null, repeats: [], failed: 0, unscored: 0,
      costUsd: 0, lastAnswer: undefined, lastReason: undefined, scorer: undefined,
    };
    const values: number[] = [];
    for (const e of p.more ? [p.first, ...p.more] : [p.first]) {
      r.costUsd += e.costUsd;
      if (e.failed) { r.failed++; continue; }
      if (!e.scored) continue; // pending: not finished yet
      r.scorer = e.scorer;
      r.lastAnswer = e.answer;
      r.lastReason = e.reason;
      if (e.value === null) r.unscored++;
      else values.push(e.value);
    }
    // Sized to what it holds: a report of 1,000,000 items keeps 1,000,000 of these.
    r.repeats = values.length === 1 ? [values[0]!] : values.slice();
    r.value = r.repeats.length ? r.repeats.reduce((a, b) => a + b, 0) / r.repeats.length : null;
    out.push(r);
    // Let the trials of read items go as their results are made.
    (pending as Array<Pending | undefined>)[k] = undefined;
  }
  return out;
}
