import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunRecord, Store } from '../core/index.js';
import { writeReport, type ReportFormat } from '../report/index.js';
import { renderScenarioHtml, renderScenarioReport, scenarioReport } from '../scenarios/index.js';
import { rescoreScenario } from '../scenarios/rescore.js';
import { rescoreSuite } from '../suites/rescore.js';
import { scorers, tests } from './wiring.js';

/** What `paideia report` and `paideia rescore` do for one kind of run. */
export interface RunKindCommands {
  /** Re-derive the run's results from its stored calls; returns the line to print. */
  rescore(store: Store, run: RunRecord, o: { scenario?: string }): Promise<string>;
  /** Write the run's report; returns where it went. */
  report(store: Store, run: RunRecord, o: { format: ReportFormat; out: string }): Promise<void>;
}

/** Every kind of run the CLI knows, by the name stored with the run. */
export const RUN_KINDS: Readonly<Record<string, RunKindCommands>> = {
  suite: {
    async rescore(store, run) {
      const r = await rescoreSuite(store, run.id, tests, scorers);
      const explained = r.explanations ? `; ${r.explanations.trials} explanation score(s) from stored judge calls` : '';
      const stale = r.needsCall ? `; ${r.needsCall} trial(s) now ask for a call the store does not hold (their prompt changed): run them with paideia run --resume ${run.id} --store ${store.url}` : '';
      return `rescored ${r.scored} trial(s) of ${run.id}${explained}${stale}`;
    },
    async report(store, run, o) {
      await writeReport(store, run.id, { ...o, tests });
    },
  },
  scenario: {
    async rescore(store, run, o) {
      const r = await rescoreScenario(store, run.id, o.scenario ? { file: o.scenario } : {});
      const stale = r.needsCall
        ? `; ${r.needsCall} judgment(s) or turn(s) need new calls (the judge prompt or the dialogue changed in ${r.file}): make them with paideia scenario run ${r.file} --store ${store.url}`
        : '';
      return `rescored ${r.judgments} judgment(s) of ${run.id} from stored judge calls; ${r.panel.aggregated} dialogue(s) with a panel score${stale}`;
    },
    async report(store, run, o) {
      const report = await scenarioReport(store, run.id);
      const text = o.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : o.format === 'html' ? renderScenarioHtml(report) : renderScenarioReport(report);
      mkdirSync(dirname(o.out), { recursive: true });
      writeFileSync(o.out, text);
    },
  },
};

/** The commands of a stored run's kind, or an error that says which kinds exist. */
export function runKindOf(run: RunRecord): RunKindCommands {
  const kind = RUN_KINDS[run.kind];
  if (!kind) throw new Error(`run ${run.id} is a ${run.kind} run; report and rescore know ${Object.keys(RUN_KINDS).join(', ')} runs`);
  return kind;
}
