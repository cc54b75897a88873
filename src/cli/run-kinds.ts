import { resolve } from 'node:path';
import { ConfigError, type RunOutcome, type RunRecord, type Store } from '../core/index.js';
import { buildReportData, onlyModel, renderReport, type ReportFormat } from '../report/index.js';
import { renderScenarioText } from '../report/scenario/index.js';
import { learningReportText, learningTableFromStore, learningTemplateCells } from '../report/learning/index.js';
import { renderValidity, withJudgeValidity, type JudgeValidity } from '../report/validity/index.js';
import { scenarioReport, type ScenarioRunSummary } from '../scenarios/index.js';
import { rescoreScenario } from '../scenarios/rescore.js';
import { rescoreSuite } from '../suites/rescore.js';
import { judgingCounts } from '../suites/judging/aggregate.js';
import { analyze, loadStoredStudy, observationsFromRun, ratingsFromRun, rescoreStudy, tableFromRun, type AnalysisTable, type RunAnalysisFiles } from '../validity/index.js';
import { commandHint } from './hint.js';
import { scenarioCounts } from './scenario-counts.js';
import { scorers, tests } from './wiring.js';

/** What `paideia report` and `paideia rescore` do for one kind of run. */
export interface RunKindCommands {
  /** Re-derive the run's results from its stored calls; returns the line to print. */
  rescore(store: Store, run: RunRecord, o: { scenario?: string }): Promise<string>;
  /**
   * The run's report as text in a format (one model's page with `model`, where the kind has pages);
   * with `experts` (an expert-score CSV), its judges' alignment with them.
   */
  report(store: Store, run: RunRecord, o: { format: ReportFormat; model?: string; experts?: string }): Promise<string>;
  /** The run's Judgments as the table `paideia validity analyze --run` analyses, with the user's files beside them. */
  analysisTable(store: Store, run: RunRecord, files: RunAnalysisFiles): Promise<AnalysisTable>;
  /** What `validity template` writes: each observation and item the judges rated, with the text they read. */
  templateCells(store: Store, run: RunRecord): Promise<TemplateCell[]>;
  /** What a session of the run did, in the kind's own units (default: trials done, failed and pending). */
  counts?(outcome: RunOutcome): string;
  /** What the kind's trials are, in words, where "trials" alone would not say (a scenario run's: dialogues and judgments). */
  trialsAre?: string;
}

export interface TemplateCell { observation: string; item: string; text: string }

const judgmentsTable = (store: Store, run: RunRecord, files: RunAnalysisFiles) => tableFromRun(store, run.id, files);

type ObservationsOf = (store: Store, runId: string) => Promise<Array<{ id: string; text: string }>>;
const judgedTrials: ObservationsOf = observationsFromRun;
const studyObservations: ObservationsOf = async (store, runId) => (await loadStoredStudy(store, runId)).observations;

/**
 * The observations of the run's Judgments (a study's own, or the judged trials' transcripts) x the
 * items a judge scored on each. A cell no judge scored (an answer with no explanation to judge, a
 * judge that never answered on the scale) is left out: an expert's score there pairs with nothing.
 */
const judgedCells = (observationsOf: ObservationsOf) => async (store: Store, run: RunRecord): Promise<TemplateCell[]> => {
  const stored = await ratingsFromRun(store, run.id);
  const observations = await observationsOf(store, run.id);
  const rated = new Map<string, Set<string>>();
  for (const r of stored.ratings) if (r.score !== null) (rated.get(r.observation) ?? rated.set(r.observation, new Set()).get(r.observation)!).add(r.item);
  return observations.flatMap(o => [...(rated.get(o.id) ?? [])].sort().map(item => ({ observation: o.id, item, text: o.text })));
};

/**
 * The judges' alignment with attached experts (the validity analysis of the run's Judgments): the
 * `--experts` file, else the expert scores imported into the run; for a run that has judges but
 * no experts, how to attach them; nothing for a run without judges. Only the alignment is shown,
 * so the variance shares are resampled the fewest times (they do not change the alignment).
 */
async function judgeValidity(store: Store, run: RunRecord, experts: string | undefined): Promise<JudgeValidity | undefined> {
  const options = { shareResamples: 100 };
  const outcomes = commandHint(['validity', 'analyze', '--run', run.id, '--outcomes', 'outcomes.csv'], store.url);
  const howToAddOutcomes = `write unit,outcome rows (a unit is an observation id, as in the expert file) to outcomes.csv and run ${outcomes}`;
  const analyzeCommand = (files: string[]) => commandHint(['validity', 'analyze', '--run', run.id, ...files], store.url);
  if (experts !== undefined) {
    return { experts, report: analyze(await tableFromRun(store, run.id, { experts }), options), analyzeCommand: analyzeCommand(['--experts', resolve(experts)]), howToAddOutcomes };
  }
  if ((await store.listJudgments(run.id)).length === 0) return undefined;
  const table = await tableFromRun(store, run.id, {});
  if (table.experts.length) return { experts: 'the expert scores imported into the run', report: analyze(table, options), analyzeCommand: analyzeCommand([]), howToAddOutcomes };
  const template = commandHint(['validity', 'template', '--run', run.id, '--out', 'experts.csv'], store.url);
  return { experts: null, howToAttach: `write a blank expert file with ${template}, fill in the scores, then add --experts experts.csv to this report command`, howToAddOutcomes };
}

async function withValidity(text: string, store: Store, run: RunRecord, o: { format: ReportFormat; experts?: string }): Promise<string> {
  const v = await judgeValidity(store, run, o.experts);
  return v ? withJudgeValidity(text, o.format, v) : text;
}

/** Every kind of run the CLI knows, by the name stored with the run. */
export const RUN_KINDS: Readonly<Record<string, RunKindCommands>> = {
  suite: {
    async rescore(store, run) {
      const r = await rescoreSuite(store, run.id, tests, scorers);
      // Only judged explanations come from judge calls: one without an explanation has nothing to judge.
      const explained = r.explanations ? `; explanations re-derived from stored judgments: ${judgingCounts(r.explanations)}` : '';
      const stale = r.needsCall ? `; ${r.needsCall} trial(s) now ask for a call the store does not hold (their prompt changed): run them with ${commandHint(['run', '--resume', run.id], store.url)}` : '';
      return `rescored ${r.scored} trial(s) of ${run.id}${explained}${stale}`;
    },
    async report(store, run, o) {
      const all = await buildReportData(store, run.id, { tests });
      return withValidity(renderReport(o.model === undefined ? all : onlyModel(all, o.model), o.format), store, run, o);
    },
    analysisTable: judgmentsTable,
    templateCells: judgedCells(judgedTrials),
  },
  scenario: {
    // Dialogues and judgments, as `scenario run` says them (`paideia runs` counts both as trials).
    counts: outcome => scenarioCounts((outcome as RunOutcome & { scenario: ScenarioRunSummary }).scenario),
    trialsAre: 'dialogues and judgments',
    async rescore(store, run, o) {
      const r = await rescoreScenario(store, run.id, o.scenario ? { file: o.scenario } : {});
      // The file names this run (rescore refuses one that does not): `scenario run` of it continues the run.
      const stale = r.needsCall
        ? `; ${r.needsCall} judgment(s) or turn(s) need new calls (a judge prompt changed in ${r.file}, or the run is unfinished): make them with ${commandHint(['scenario', 'run', r.file, ...r.runArgs], store.url)}`
        : '';
      return `rescored ${r.judgments} judgment(s) of ${run.id} from stored judge calls; ${r.panel.aggregated} dialogue(s) with a panel score${stale}`;
    },
    async report(store, run, o) {
      if (o.model !== undefined) throw new ConfigError([{ field: '--model', message: 'model pages are for suite runs; a scenario report already has a section per model (drop --model)' }]);
      const report = await scenarioReport(store, run.id);
      return withValidity(renderScenarioText(report, o.format), store, run, o);
    },
    analysisTable: judgmentsTable,
    templateCells: judgedCells(judgedTrials),
  },
  validity: {
    async rescore(store, run) {
      const r = await rescoreStudy(store, run.id);
      const from = r.study.source.type === 'run' ? ['--observations-run', r.study.source.runId] : [];
      const stale = r.needsCall ? `; ${r.needsCall} cell(s) have no stored answer: make them with ${commandHint(['validity', 'run', r.study.file, ...from], store.url)}` : '';
      return `rescored ${r.judgments} rating(s) of ${run.id} from stored answers: ${r.scored} scored, ${r.unscored} unscored${stale}`;
    },
    async report(store, run, o) {
      if (o.model !== undefined) throw new ConfigError([{ field: '--model', message: 'model pages are for suite runs; a study report has a row per rater (drop --model)' }]);
      const table = await tableFromRun(store, run.id, o.experts !== undefined ? { experts: o.experts } : {});
      return renderValidity(analyze(table), o.format);
    },
    analysisTable: judgmentsTable,
    templateCells: judgedCells(studyObservations),
  },
  learning: {
    async rescore(store, run) {
      return `learning run ${run.id}: answers are marked and judgments aggregated when the report is made, from the stored calls; nothing to rescore; its report: ${commandHint(['learning', 'report', run.id], store.url)}`;
    },
    async report(store, run, o) {
      if (o.model !== undefined) throw new ConfigError([{ field: '--model', message: 'model pages are for suite runs; a learning report has a row per generator and learner (drop --model)' }]);
      return learningReportText(store, run.id, o.format, o.experts !== undefined ? { experts: o.experts } : {});
    },
    // Decks are the observations, D1/D2 the items, learner gain the outcome (docs/validity.md).
    analysisTable: (store, run, files) => learningTableFromStore(store, run.id, files),
    templateCells: (store, run) => learningTemplateCells(store, run.id),
  },
};

/** The commands of a stored run's kind, or an error that says which kinds exist. */
export function runKindOf(run: RunRecord): RunKindCommands {
  const kind = RUN_KINDS[run.kind];
  if (!kind) throw new Error(`run ${run.id} is a ${run.kind} run; report and rescore know ${Object.keys(RUN_KINDS).join(', ')} runs`);
  return kind;
}
