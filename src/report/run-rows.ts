import type { Score, StoredError, Store, Trial, TrialPage } from '../core/index.js';
import type { ItemResults } from './aggregate.js';
import { explanationTally, type ExplanationTally } from './explanations.js';
import { trialColumns } from './trial-columns.js';
import { readItemTable, type ItemTable } from './run-items.js';
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
  items: ItemTable;
  /** Per model, test and item, in the order of each one's first trial by (repeat, plan index). */
  results: ItemResults;
  /** Tests of the trials under test (judges left out), sorted. */
  tests: string[];
  /** Languages of each test's items, sorted. */
  languages: Map<string, string[]>;
  /** Trials per `model\0test` and per `model\0test\0language`. */
  trialCount: Map<string, number>;
  /** By plan index. */
  failedTrials: FailedTrial[];
  /** The run's explanation scores, folded in. */
  explanation: ExplanationTally;
  costs: StepCosts;
}

interface StepRecord { seq: number; costUsd: number; status: 'ok' | 'error'; text: string | undefined; error: StoredError | undefined }

/**
 * Read a run for its report: items once, then trials a page at a time with their calls and scores,
 * folded into per-item results as the report has always computed them (the newest record of each
 * step decides it, a step costs every call it made, the headline scorer's score of each repeat).
 * What stays of a trial is a row of typed columns; memory is a few dozen bytes per trial.
 * `answers: false` reads no answer text: rows and examples then have none (a run's terminal
 * summary shows only scores, counts and costs).
 */
export async function readReportRows(
  store: Store, runId: string, headline: ReadonlyMap<string, string>, pageSize = PAGE, o: { answers?: boolean } = {},
): Promise<ReportRows> {
  const items = await readItemTable(store, runId, pageSize);
  const costs = stepCosts();
  const rows = trialColumns(items.size);
  const tests = new Set<string>();
  const languages = new Map<string, Set<string>>();
  const trialCount = new Map<string, number>();
  const count = (k: string) => trialCount.set(k, (trialCount.get(k) ?? 0) + 1);
  const failedTrials: FailedTrial[] = [];
  const explanation = explanationTally(items);

  const absorb = (page: TrialPage) => {
    const steps = new Map<string, StepRecord[]>();
    for (const c of page.calls) {
      const list = steps.get(c.trialId) ?? steps.set(c.trialId, []).get(c.trialId)!;
      const earlier = list[c.step];
      list[c.step] = { seq: c.seq, costUsd: c.costUsd + (earlier?.costUsd ?? 0), status: c.status, text: c.text, error: c.error };
    }
    const trialOf = new Map(page.trials.map(t => [t.id, t]));
    for (const [trialId, list] of steps) {
      const t = trialOf.get(trialId);
      for (const s of list.filter(s => s !== undefined).sort((a, b) => a.seq - b.seq)) {
        costs.add(s.seq, s.costUsd, t === undefined ? undefined : t.target !== undefined ? { judge: true } : { model: t.modelAlias });
      }
    }
    // A trial's last answer: the text of the newest ok step record that has one.
    const lastAnswer = (trialId: string) => {
      let answer: StepRecord | undefined;
      for (const s of steps.get(trialId) ?? []) if (s?.status === 'ok' && s.text !== undefined && (!answer || s.seq > answer.seq)) answer = s;
      return answer?.text;
    };
    const scoresOf = new Map<string, Score[]>();
    for (const s of page.scores) {
      (scoresOf.get(s.trialId) ?? scoresOf.set(s.trialId, []).get(s.trialId)!).push(s);
      const t = trialOf.get(s.trialId);
      explanation.add(s, t && t.target === undefined ? t : undefined, () => lastAnswer(s.trialId));
    }
    for (const t of page.trials) {
      if (t.target !== undefined) continue; // judges are reported through the explanation scores
      tests.add(t.test);
      const item = items.indexOf(t.itemHash);
      const language = item === undefined ? undefined : items.language(item);
      if (language !== undefined) (languages.get(t.test) ?? languages.set(t.test, new Set()).get(t.test)!).add(language);
      count(`${t.modelAlias}\u0000${t.test}`);
      count(`${t.modelAlias}\u0000${t.test}\u0000${language ?? ''}`);
      const list = steps.get(t.id) ?? [];
      const failed = list.find(c => c?.status === 'error');
      if (failed) failedTrials.push({ index: t.index, id: t.id, model: t.modelAlias, test: t.test, error: failed.error });
      if (item === undefined) continue;
      const ts = scoresOf.get(t.id) ?? [];
      const score = ts.find(s => s.scorer.name === headline.get(t.test)) ?? ts[0];
      const whole = items.publicItem(item) !== undefined;
      rows.add({
        model: t.modelAlias, test: t.test, item, repeat: t.repeat, index: t.index, costUsd: trialCost(list), failed: failed !== undefined,
        score, reason: whole ? score?.reason : undefined, answer: whole ? list.at(-1)?.text : undefined,
      });
    }
  };

  for (let after: { index: number; id: string } | undefined; ;) {
    const page = await store.readTrialPage(runId, { limit: pageSize, ...(after ? { after } : {}), ...(o.answers === false ? { answers: false } : {}) });
    absorb(page);
    if (page.trials.length < pageSize) break;
    const last = page.trials.at(-1)!;
    after = { index: last.index, id: last.id };
  }
  failedTrials.sort((a, b) => a.index - b.index);
  return {
    items, results: rows.settle(), tests: [...tests].sort(),
    languages: new Map([...languages].map(([test, ls]) => [test, [...ls].sort()])), trialCount, failedTrials, explanation, costs: costs.sorted(),
  };
}

/** A trial's cost: its steps' costs added in the order their newest calls were stored. */
function trialCost(steps: ReadonlyArray<StepRecord | undefined>): number {
  let sum = 0;
  for (const s of steps.filter(x => x !== undefined).sort((a, b) => a.seq - b.seq)) sum += s.costUsd;
  return sum;
}
