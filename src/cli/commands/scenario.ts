import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, stripControl } from '../../core/index.js';
import { renderOverviewHtml, renderOverviewMarkdown, renderScenarioHtml, renderScenarioReport, renderScenarioText, scenarioOverview } from '../../report/scenario/index.js';
import type { RunEvent } from '../../core/index.js';
import { startRun } from '../../runs.js';
import { scenarioCounts } from '../scenario-counts.js';
import { failureLines, scenarioFailures } from '../../scenarios/analysis/failures.js';
import type { ScenarioRunConfig, ScenarioRunOutcome } from '../../scenarios/run-kind.js';
import type { Scenario } from '../../scenarios/types.js';
import { loadScenario, scenarioJsonSchema, scenarioReport, scenarioRunId } from '../../scenarios/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { raisedCapArgs, refusedCallLine, resumeBaseUrl, retryAfterUnreachableArgs } from '../stop-hints.js';
import { EXIT_CODES } from '../exit-codes.js';
import { deletedRunError } from '../deleted-run.js';
import { commandHint } from '../hint.js';
import { stopWhy } from '../progress.js';
import { emitReport, writeOutFile } from '../report-out.js';
import { stopOnSignals } from '../signals.js';
import { numberFlag, positiveInt } from '../options.js';
import { registerScenarioBatch, synthesisOptions } from './scenario-batch.js';
import { registerScenarioStudies } from './scenario-studies.js';
import { collect, guarded, parseOverrides, processIO, type ScenarioIO } from './scenario-io.js';
import { typedSettings } from './resume.js';
import { scenarioExportCommand, scenarioImportCommand, scenarioSynthesizeCommand, type ExportFlags, type ImportFlags, type SynthesizeFlags } from './scenario-tools.js';
import { spentText } from '../spent.js';

export { printIssues, type ScenarioIO } from './scenario-io.js';
export { scenarioExportCommand, scenarioImportCommand, scenarioSynthesizeCommand, type ExportFlags, type ImportFlags, type SynthesizeFlags } from './scenario-tools.js';

export interface ValidateFlags { model?: string[]; script?: string; baseUrl?: string }

export async function scenarioValidateCommand(file: string, f: ValidateFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    const s = loadScenario(file, { models: parseOverrides(f.model), ...(io.env ? { env: io.env } : {}), ...(f.script ? { scriptFile: f.script } : {}), ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}) });
    for (const w of s.warnings) io.stderr(`warning: ${stripControl(w)}\n`);
    // Not bad input for validate (nothing is called), but a run stops on them before any call.
    for (const i of s.keyIssues) io.stderr(`warning: ${i.file ?? file}${i.line ? `:${i.line}` : ''}, field "${i.field}": ${stripControl(i.message)} (scenario run exits 2 until then)\n`);
    const judges = s.evaluation ? `${s.evaluation.judges.join(', ')} (${s.evaluation.formatMode} mode, ${s.evaluation.repeats} repeat(s))` : 'none';
    io.stdout(`${file}: ok: scenario "${s.name}", ${s.tasks.length} task(s), agents ${[...s.agents.keys()].join(', ')}, under test: ${s.target} (${s.agents.get(s.target)!.model}), judges: ${judges}\n`);
    return EXIT_CODES.ok;
  });
}

export interface ScenarioRunFlags {
  model?: string[];
  store: string;
  resume?: boolean;
  repeats?: string;
  script?: string;
  retryErrors?: boolean;
  judge: boolean;
  report?: string;
  costCap?: string;
  prices?: string;
  baseUrl?: string;
  planOnly?: boolean;
  rpm?: string;
  tpm?: string;
  maxInFlight?: string;
  concurrency?: string;
  timeout?: string;
}

/** `paideia scenario run`: exit 0 all done, 1 some dialogues or judge calls failed, 2 bad input, 3 interrupted or cost cap (resumable). */
/**
 * `paideia scenario run`. `signal` aborts the run (calls in flight too); with `signals`, Ctrl-C
 * and SIGTERM act on it as on `paideia run`: the first Ctrl-C drains (no new turn starts, calls
 * in flight finish and are stored), a second one or SIGTERM aborts.
 */
export async function scenarioRunCommand(file: string, f: ScenarioRunFlags, io: ScenarioIO = processIO, signal?: AbortSignal, signals = false): Promise<{ runId?: string; exitCode: number }> {
  let runId: string | undefined;
  const exitCode = await guarded(io, async () => {
    const repeats = numberFlag('--repeats', f.repeats, positiveInt, 'a whole number >= 1');
    const costCapUsd = numberFlag('--cost-cap', f.costCap, n => Number.isFinite(n) && n >= 0, 'an amount in USD >= 0');
    const rpm = numberFlag('--rpm', f.rpm, positiveInt, 'a whole number >= 1');
    const tpm = numberFlag('--tpm', f.tpm, positiveInt, 'a whole number >= 1');
    const maxInFlight = numberFlag('--max-in-flight', f.maxInFlight, positiveInt, 'a whole number >= 1');
    const concurrency = numberFlag('--concurrency', f.concurrency, positiveInt, 'a whole number >= 1');
    const timeoutMs = numberFlag('--timeout', f.timeout, positiveInt, 'milliseconds >= 1');
    if (tpm && !rpm) throw new ConfigError([{ field: '--tpm', message: 'a token limit goes with a request limit: add --rpm N (the provider\'s requests per minute)' }]);
    // `scenario run --resume scn-...`: its --resume continues the run a file describes; a run id goes to `run --resume`.
    if (/^scn-[0-9a-f]{8,}$/.test(file) && !existsSync(file)) {
      throw new ConfigError([{ message: `${file} is a run id, not a scenario file; continue a stored run by its id with: ${commandHint(['run', '--resume', file], f.store)}` }]);
    }
    // Loaded here too for the run id (--resume) and the plan's counts; the run kind loads it again.
    const scenario = loadScenario(file, {
      models: parseOverrides(f.model), ...(io.env ? { env: io.env } : {}), ...(f.script ? { scriptFile: f.script } : {}), ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
    });
    const store = await openStore(f.store);
    try {
      const expected = scenarioRunId(scenario, repeats ?? scenario.globals.repeats);
      if (f.resume && !(await store.getRun(expected))) {
        throw new ConfigError([{ field: '--resume', message: `no stored run ${expected} of this scenario with these models in ${store.url}; run without --resume to start it` }]);
      }
      const config: ScenarioRunConfig = {
        kind: 'scenario', file, models: f.model ?? [], ...(repeats ? { repeats } : {}), judge: f.judge, retryErrors: f.retryErrors ?? false,
        ...(costCapUsd !== undefined ? { costCapUsd } : {}), ...(f.prices ? { prices: f.prices } : {}), ...(f.script ? { script: f.script } : {}),
        ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}), ...(f.planOnly ? { planOnly: true } : {}),
        ...(rpm ? { requestsPerMinute: rpm } : {}), ...(tpm ? { tokensPerMinute: tpm } : {}), ...(maxInFlight ? { maxInFlight } : {}),
        ...(timeoutMs ? { timeoutMs } : {}), ...(concurrency ? { concurrency } : {}),
      };
      // A plan-only run keeps its whole config for its workers; a resume changes a kept one by the flags typed.
      // Its continuation flags have no defaults: a flag with a value was typed.
      const typed = typedSettings(new Set(Object.entries(f).filter(([, v]) => v !== undefined).map(([k]) => k)));
      const handle = startRun(config, { store, keepConfig: f.planOnly ? true : { update: typed }, ...(signal ? { signal } : {}), ...(io.env ? { env: io.env } : {}) });
      handle.on(progress(io, plannedCounts(scenario, repeats ?? scenario.globals.repeats, f.judge)));
      const detach = signals ? stopOnSignals(handle) : () => undefined;
      let outcome: ScenarioRunOutcome;
      try {
        outcome = await handle.done as ScenarioRunOutcome;
      } finally {
        detach();
      }
      const summary = outcome.scenario;
      const gone = await deletedRunError(store, outcome.runId, summary.stoppedBy);
      if (gone) throw gone;
      const baseUrl = resumeBaseUrl(await store.getRun(outcome.runId), f.baseUrl, io.env ?? process.env);
      const again = sameScenarioRun(file, { ...f, ...(baseUrl ? { baseUrl } : {}) });
      runId = outcome.runId;
      if (f.planOnly) {
        io.stderr(`planned; run its dialogues and judgments with: ${commandHint(['worker', '--run', runId], store.url)} (as many as you like, on any machine that reaches the store and has ${resolve(file)} at the same path)\n`);
        return EXIT_CODES.ok;
      }
      const j = summary.judging;
      io.stderr(`run ${runId}: ${scenarioCounts(summary)}; ${await spentText(store, runId, summary.spentUsd)} (store ${store.url})\n`);
      const failures = summary.failed > 0 || summary.judgmentsFailed > 0 ? await scenarioFailures(store, runId, await store.listTrials(runId)) : [];
      if (failures.length > 0) io.stderr(`failures, grouped by error:\n${failureLines(failures).map(stripControl).join('\n')}\n`);
      if (j?.unscored) {
        io.stderr(`${j.unscored} judgment(s) unscored (kept with the judge's answer, never counted as 0), by reason:\n${j.unscoredReasons.map(r => `  ${r.count} x ${stripControl(r.reason)}`).join('\n')}\n`
          + (scenario.evaluation?.formatMode === 'tool' ? 'a judge model that does not call tools may answer with evaluation.format_mode: prompt; ' : '')
          + `the report lists them per judge: ${commandHint(['scenario', 'report', runId, '--format', 'md'], store.url)}\n`);
      }
      if (f.report) {
        const report = scenarioReport(store, runId);
        writeOutFile(f.report, JSON.stringify(await report, null, 2) + '\n', '--report');
        io.stderr(`report: ${f.report}\n`);
      }
      if (summary.stoppedBy || summary.pending > 0 || (j?.pending ?? 0) > 0) {
        if (summary.stoppedBy === 'cost-cap') io.stderr(`stopped: the next call could pass the cost cap of $${costCapUsd}; everything done so far is stored\n`);
        io.stderr(refusedCallLine(summary, 'a smaller max_tokens in the models\' kargs'));
        const cap = raisedCapArgs(summary, costCapUsd);
        const retry = retryAfterUnreachableArgs(summary, summary.failed + summary.judgmentsFailed);
        io.stderr(`resume with: ${commandHint([...again, '--resume', ...cap, ...retry], store.url)}\n`);
        return EXIT_CODES.stopped;
      }
      if (summary.failed > 0 || summary.judgmentsFailed > 0) {
        io.stderr(`some dialogues or judge calls failed (provider errors, not scored as wrong); retry them with: ${commandHint([...again, '--resume', '--retry-errors'], store.url)}\n`);
        return EXIT_CODES.trialsFailed;
      }
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
  return { ...(runId ? { runId } : {}), exitCode };
}

/** Dialogues and judgments the run plans, for its first progress line. */
function plannedCounts(scenario: Scenario, repeats: number, judge: boolean): { dialogues: number; judgments: number } {
  const dialogues = scenario.variants.length * scenario.tasks.length * repeats;
  const ev = scenario.evaluation;
  return { dialogues, judgments: judge && ev ? dialogues * ev.judges.length * ev.repeats : 0 };
}

/**
 * The flags that decide which stored run a scenario run is (its id hashes them), for hints. Paths
 * are absolute, as the suite hints' store is: pasted in another folder the hint finds the same files.
 */
function sameScenarioRun(file: string, f: ScenarioRunFlags): string[] {
  return [
    'scenario', 'run', resolve(file), ...(f.model ?? []).flatMap(m => ['-m', m]), ...(f.repeats ? ['--repeats', f.repeats] : []),
    ...(f.script ? ['--script', resolve(f.script)] : []), ...(f.prices ? ['--prices', resolve(f.prices)] : []), ...(f.judge ? [] : ['--no-judge']),
    ...(f.baseUrl ? ['--base-url', f.baseUrl] : []),
    // Not part of the id, but a resume without them would run unlimited.
    ...(f.rpm ? ['--rpm', f.rpm] : []), ...(f.tpm ? ['--tpm', f.tpm] : []), ...(f.maxInFlight ? ['--max-in-flight', f.maxInFlight] : []),
    ...(f.timeout ? ['--timeout', f.timeout] : []), ...(f.concurrency ? ['--concurrency', f.concurrency] : []),
  ];
}

function progress(io: ScenarioIO, planned: { dialogues: number; judgments: number }): (e: RunEvent) => void {
  let finished = 0;
  let total = 0;
  return e => {
    if (e.type === 'warning') {
      io.stderr(`warning: ${stripControl(e.message)}\n`);
    } else if (e.type === 'planned') {
      io.stderr(`run ${e.runId}: ${planned.dialogues} dialogue(s), up to ${planned.judgments} judgment(s)\n`);
    } else if (e.type === 'start') {
      total = e.pending;
    } else if (e.type === 'trial') {
      finished++;
      if (finished === total || finished % Math.max(1, Math.ceil(total / 10)) === 0) io.stderr(`trials ${finished}/${total} (dialogues and judgments)\n`);
    } else if (e.type === 'stop') {
      io.stderr(`stopping: ${stopWhy(e)}; everything done so far is stored\n`);
    }
  };
}

export async function scenarioReportCommand(runIds: string | string[], f: { store: string; format: string; out?: string }, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    if (f.format !== 'json' && f.format !== 'md' && f.format !== 'html') throw new ConfigError([{ field: '--format', message: `expected json, md or html, got "${f.format}"` }]);
    const ids = Array.isArray(runIds) ? runIds : [runIds];
    const store = await openStore(f.store, { mustExist: true, readOnly: true });
    try {
      const reports = [];
      for (const id of ids) reports.push(await scenarioReport(store, id));
      let text: string;
      if (reports.length === 1) {
        const report = reports[0]!;
        text = renderScenarioText(report, f.format);
      } else {
        // Several runs (one per scenario, say): an overview per scenario, model and dimension first.
        const overview = scenarioOverview(reports);
        text = f.format === 'json' ? JSON.stringify(overview, null, 2) + '\n'
          : f.format === 'html' ? renderOverviewHtml(overview, renderScenarioHtml) : renderOverviewMarkdown(overview, renderScenarioReport);
      }
      emitReport(text, f.out, io.stdout);
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

export function registerScenario(program: Command): void {
  const scenario = program.command('scenario').description('teaching scenarios: YAML dialogue graphs with rubric judges (ELMES format)');

  scenario.command('validate')
    .description('check a scenario file; every problem is printed as file:line, field and message (exit 2)')
    .argument('<file>')
    .option('-m, --model <alias=spec>', 'override a scenario model, repeatable', collect)
    .option('--script <file>', 'script for baseline:script overrides')
    .option('--base-url <url>', 'endpoint of every openai model, as scenario run --base-url')
    .action(async (file: string, f: ValidateFlags) => {
      process.exitCode = await scenarioValidateCommand(file, f);
    });

  scenario.command('run')
    .description('run every dialogue of a scenario, storing each turn as it happens, then judge them')
    .argument('<file>')
    .option('-m, --model <alias=spec>', 'override a scenario model, e.g. teacher=openai:gpt-4.1; repeat an alias to sweep it', collect)
    .option('--store <url>', 'sqlite:<path> or postgres://USER@HOST[:PORT]/DATABASE', DEFAULT_STORE_URL)
    .option('--resume', 'continue the stored run of this scenario and models (fails if there is none)')
    .option('--repeats <n>', 'dialogues per task (default globals.repeats or 1)')
    .option('--script <file>', 'script for baseline:script overrides')
    .option('--retry-errors', 'continue failed dialogues from their failed turn')
    .option('--no-judge', 'run the dialogues only')
    .option('--report <file>', 'also write the JSON report here')
    .option('--cost-cap <usd>', 'hard cap on the run\'s spend (dialogue turns and judge calls); stops with exit 3 before a call could pass it')
    .option('--prices <file>', 'price table JSON instead of the shipped one')
    .option('--base-url <url>', 'endpoint of every openai model (the file\'s and --model\'s), e.g. http://127.0.0.1:8080/v1; the file\'s api_key is then never sent, the key comes from OPENAI_API_KEY')
    .option('--plan-only', 'plan and store the run, print its id and call nothing; paideia worker processes run it')
    .option('--rpm <n>', 'requests per minute per model, shared by every process on the store (a burst of one second\'s worth)')
    .option('--tpm <n>', 'input + output tokens per minute per model (with --rpm), shared like it')
    .option('--max-in-flight <n>', 'calls in flight per model (dialogue turns and judge calls) across every process on the store')
    .option('--timeout <ms>', 'per-attempt timeout of a model call in milliseconds, for models whose entry sets no kargs.timeout (seconds; that wins)')
    .option('--concurrency <n>', 'dialogue turns and judge calls this process has going at once (default the file\'s globals.concurrency)')
    .action(async (file: string, f: ScenarioRunFlags) => {
      // Ctrl-C drains the run, as on `paideia run` (cli/signals.ts); a second one aborts it.
      const { runId, exitCode } = await scenarioRunCommand(file, f, processIO, undefined, true);
      if (runId) process.stdout.write(`${runId}\n`);
      process.exitCode = exitCode;
    });

  scenario.command('schema')
    .description('print the JSON Schema of scenario files (for editors)')
    .action(() => {
      process.stdout.write(JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
    });

  scenario.command('report')
    .description('per model and dimension: mean, n and 95% interval, radar chart, judge variance and self-preference, judge-human agreement (no model is called); several run ids add an overview per scenario, model and dimension')
    .argument('<run-id...>')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .option('--format <format>', 'json, md or html', 'json')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .action(async (runIds: string[], f: { store: string; format: string; out?: string }) => {
      process.exitCode = await scenarioReportCommand(runIds, f);
    });

  scenario.command('export')
    .description('write every judged dialogue for blind scoring by experts (model names hidden, order shuffled), with a private key file beside it')
    .argument('<run-id>')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .option('--format <format>', 'csv or labelstudio', 'csv')
    .option('-o, --out <file>', 'the file for the experts')
    .option('--seed <n>', 'shuffle seed (default 0)')
    .action(async (runId: string, f: ExportFlags) => {
      process.exitCode = await scenarioExportCommand(runId, f);
    });

  scenario.command('import')
    .description('import one expert\'s scores (the export CSV filled in, or a Label Studio JSON export) as human:<rater>')
    .argument('<run-id>')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .option('--file <file>', 'the scored file')
    .option('--rater <name>', 'the expert; scores are stored as human:<name>')
    .option('--key <file>', 'the private key file (default: the keys stored in the run by export)')
    .action(async (runId: string, f: ImportFlags) => {
      process.exitCode = await scenarioImportCommand(runId, f);
    });

  registerScenarioStudies(scenario);
  registerScenarioBatch(scenario);

  synthesisOptions(scenario.command('synthesize')
    .description('draft a weighted rubric from a scenario description, refine it over rounds of generated questions, and write a runnable scenario')
    .option('--description <file-or-text>', 'the scenario description: a file, or the text')
    .option('--name <name>', 'scenario name (default synthesized)')
    .option('-o, --out <file>', 'write the scenario here (default stdout)'))
    .action(async (f: SynthesizeFlags) => {
      process.exitCode = await scenarioSynthesizeCommand(f);
    });
}
