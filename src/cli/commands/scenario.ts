import { loadPriceTable, priceFor } from '../../providers/pricing.js';
import { renderOverviewHtml, renderOverviewMarkdown, scenarioOverview } from '../../scenarios/render/overview.js';
import type { Env } from '../../core/env.js';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, ProviderCallError, formatLocation, parseModelSpec, type ModelSpec } from '../../core/index.js';
import {
  loadScenario, renderScenarioHtml, renderScenarioReport, runScenario, scenarioJsonSchema, scenarioReport, scenarioRunId, type ScenarioEvent,
} from '../../scenarios/index.js';
import { importHumanScores, writeBlindExport, type BlindFormat } from '../../scenarios/blind/index.js';
import { buildChatModel } from '../../scenarios/models.js';
import { DEFAULT_DIMENSIONS, SynthesisError, parseDimensions, synthesize } from '../../scenarios/synthesis/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { nonNegative, numberFlag, positiveInt } from '../options.js';

/** Where the commands write; tests pass their own. */
export interface ScenarioIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: Env;
}

const processIO: ScenarioIO = { stdout: t => process.stdout.write(t), stderr: t => process.stderr.write(t) };
const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Every issue on its own line, `file:line, field "x": message`, so editors can jump to it. */
export function printIssues(error: ConfigError, io: ScenarioIO): void {
  for (const issue of error.issues) {
    const where = formatLocation(issue);
    io.stderr(`${where ? `${where}: ` : ''}${issue.message}\n`);
  }
}

/** Run a command body; bad input is printed as issues and becomes exit code 2. */
async function guarded(io: ScenarioIO, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ConfigError) {
      printIssues(error, io);
      return EXIT_CODES.badInput;
    }
    throw error;
  }
}

function parseOverrides(models: string[] | undefined): ModelSpec[] {
  const issues: ConfigError['issues'] = [];
  const specs: ModelSpec[] = [];
  for (const text of models ?? []) {
    if (!text.includes('=')) {
      issues.push({ field: '--model', message: `"${text}" names no scenario model; write --model <alias>=provider:model, e.g. --model teacher=openai:gpt-4.1` });
      continue;
    }
    try {
      specs.push(parseModelSpec(text, { field: '--model' }));
    } catch (error) {
      if (error instanceof ConfigError) issues.push(...error.issues);
      else throw error;
    }
  }
  if (issues.length) throw new ConfigError(issues);
  return specs;
}

export interface ValidateFlags { model?: string[]; script?: string }

export async function scenarioValidateCommand(file: string, f: ValidateFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    const s = loadScenario(file, { models: parseOverrides(f.model), ...(io.env ? { env: io.env } : {}), ...(f.script ? { scriptFile: f.script } : {}) });
    for (const w of s.warnings) io.stderr(`warning: ${w}\n`);
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
}

/** `paideia scenario run`: exit 0 all done, 1 some dialogues or judge calls failed, 2 bad input, 3 interrupted or cost cap (resumable). */
export async function scenarioRunCommand(file: string, f: ScenarioRunFlags, io: ScenarioIO = processIO, signal?: AbortSignal): Promise<{ runId?: string; exitCode: number }> {
  let runId: string | undefined;
  const exitCode = await guarded(io, async () => {
    const scenario = loadScenario(file, { models: parseOverrides(f.model), ...(io.env ? { env: io.env } : {}), ...(f.script ? { scriptFile: f.script } : {}) });
    for (const w of scenario.warnings) io.stderr(`warning: ${w}\n`);
    const repeats = numberFlag('--repeats', f.repeats, positiveInt, 'a whole number >= 1');
    const costCapUsd = numberFlag('--cost-cap', f.costCap, n => Number.isFinite(n) && n >= 0, 'an amount in USD >= 0');
    const prices = loadPriceTable(f.prices);
    // A cap cannot hold for a model whose price is unknown: refuse rather than under-count.
    const unpriced = [...new Set(scenario.variants.flatMap(v => [...v.models.values()].map(m => m.spec.spec)))].filter(spec => !priceFor(prices, spec));
    if (costCapUsd !== undefined && unpriced.length) {
      throw new ConfigError([{ field: '--cost-cap', message: `no price for ${unpriced.join(', ')} in ${prices.source}; add it to a price file and pass --prices FILE, or drop --cost-cap` }]);
    }
    const store = await openStore(f.store);
    try {
      const expected = scenarioRunId(scenario, repeats ?? scenario.globals.repeats);
      if (f.resume && !(await store.getRun(expected))) {
        throw new ConfigError([{ field: '--resume', message: `no stored run ${expected} of this scenario with these models in ${store.url}; run without --resume to start it` }]);
      }
      const { run, summary } = await runScenario({
        scenario, store, ...(repeats ? { repeats } : {}), judge: f.judge, retryErrors: f.retryErrors ?? false, prices,
        ...(costCapUsd !== undefined ? { costCapUsd } : {}),
        ...(signal ? { signal } : {}), onEvent: progress(io),
      });
      runId = run.id;
      const j = summary.judging;
      io.stderr(`run ${run.id}: ${summary.ended} ended, ${summary.capped} capped, ${summary.failed} failed, ${summary.pending} pending dialogue(s)`
        + (j ? `; judgments: ${j.judged} new, ${j.reused} stored, ${j.unscored} unscored, ${j.errors} failed` : '') + ` (store ${store.url})\n`);
      if (f.report) {
        const report = scenarioReport(store, run.id);
        mkdirSync(dirname(f.report), { recursive: true });
        writeFileSync(f.report, JSON.stringify(await report, null, 2) + '\n');
        io.stderr(`report: ${f.report}\n`);
      }
      if (summary.stoppedBy || summary.pending > 0 || (j?.pending ?? 0) > 0) {
        if (summary.stoppedBy === 'cost-cap') io.stderr(`stopped: the next call could pass the cost cap of $${costCapUsd}; everything done so far is stored\n`);
        io.stderr(`resume with: paideia scenario run ${file} --resume --store ${store.url}${summary.stoppedBy === 'cost-cap' ? ' --cost-cap <higher>' : ''}\n`);
        return EXIT_CODES.stopped;
      }
      if (summary.failed > 0 || (j?.errors ?? 0) > 0) {
        io.stderr(`some dialogues or judge calls failed (provider errors, not scored as wrong); retry with --resume --retry-errors\n`);
        return EXIT_CODES.trialsFailed;
      }
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
  return { ...(runId ? { runId } : {}), exitCode };
}

function progress(io: ScenarioIO): (e: ScenarioEvent) => void {
  let finished = 0;
  let total = 0;
  return e => {
    if (e.type === 'start') {
      total = e.dialogues;
      io.stderr(`run ${e.runId}: ${e.dialogues} dialogue(s), up to ${e.judgments} judgment(s)\n`);
    } else if (e.type === 'dialogue') {
      finished++;
      if (finished === total || finished % Math.max(1, Math.ceil(total / 10)) === 0) io.stderr(`dialogues ${finished}/${total}\n`);
    } else if (e.type === 'stop') {
      io.stderr('interrupted: everything done so far is stored\n');
    }
  };
}

export async function scenarioReportCommand(runIds: string | string[], f: { store: string; format: string; out?: string }, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    if (f.format !== 'json' && f.format !== 'md' && f.format !== 'html') throw new ConfigError([{ field: '--format', message: `expected json, md or html, got "${f.format}"` }]);
    const ids = Array.isArray(runIds) ? runIds : [runIds];
    const store = await openStore(f.store, { mustExist: true });
    try {
      const reports = [];
      for (const id of ids) reports.push(await scenarioReport(store, id));
      let text: string;
      if (reports.length === 1) {
        const report = reports[0]!;
        text = f.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : f.format === 'html' ? renderScenarioHtml(report) : renderScenarioReport(report);
      } else {
        // Several runs (one per scenario, say): an overview per scenario, model and dimension first.
        const overview = scenarioOverview(reports);
        text = f.format === 'json' ? JSON.stringify(overview, null, 2) + '\n'
          : f.format === 'html' ? renderOverviewHtml(overview, renderScenarioHtml) : renderOverviewMarkdown(overview, renderScenarioReport);
      }
      if (f.out) {
        mkdirSync(dirname(f.out), { recursive: true });
        writeFileSync(f.out, text);
        io.stdout(`${f.out}\n`);
      } else io.stdout(text);
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

export interface ExportFlags { store: string; format: string; out?: string; seed?: string }

/** `paideia scenario export`: the blind file for experts, its companion, and the private key beside it. */
export async function scenarioExportCommand(runId: string, f: ExportFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    if (!f.out) throw new ConfigError([{ field: '--out', message: 'name the file to write, e.g. --out blind.csv' }]);
    const seed = numberFlag('--seed', f.seed, n => Number.isInteger(n) && nonNegative(n), 'a whole number >= 0');
    const store = await openStore(f.store);
    try {
      const w = await writeBlindExport(store, runId, { format: f.format as BlindFormat, out: f.out, ...(seed !== undefined ? { seed } : {}) });
      io.stdout(`${w.out}\n`);
      io.stderr(`${w.dialogues} dialogue(s) exported (export ${w.exportId}); ${f.format === 'csv' ? 'rubric' : 'labeling config'}: ${w.companion}\n`);
      io.stderr(`private key (do not give it to the experts): ${w.keyFile}\n`);
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

export interface ImportFlags { store: string; file?: string; rater?: string; key?: string }

/** `paideia scenario import`: one expert's scores, all rows checked before any is stored. */
export async function scenarioImportCommand(runId: string, f: ImportFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    const missing = [!f.file && { field: '--file', message: 'name the scored file: --file scores.csv (or a Label Studio JSON export)' }, !f.rater && { field: '--rater', message: 'name the expert: --rater <name>' }].filter(Boolean) as ConfigError['issues'];
    if (missing.length) throw new ConfigError(missing);
    const store = await openStore(f.store);
    try {
      const s = await importHumanScores(store, runId, { file: f.file!, rater: f.rater!, ...(f.key ? { keyFile: f.key } : {}) });
      io.stderr(`${s.imported} dialogue(s) scored by ${s.scorer}; ${s.skipped} empty row(s) skipped\n`);
      return EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

export interface SynthesizeFlags {
  description?: string;
  generator?: string;
  answerer?: string;
  judge?: string;
  rounds?: string;
  questions?: string;
  anchors?: string;
  patience?: string;
  dimensions?: string;
  name?: string;
  out?: string;
  script?: string;
  store: string;
}

/** `paideia scenario synthesize`: 0 a scenario was written, 1 a model never gave a valid answer or failed, 2 bad input. */
export async function scenarioSynthesizeCommand(f: SynthesizeFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    const issues: ConfigError['issues'] = [];
    const role = (flag: 'generator' | 'answerer' | 'judge'): ModelSpec | undefined => {
      const text = f[flag];
      if (!text) { issues.push({ field: `--${flag}`, message: `name the ${flag} model: --${flag} alias=provider:model (e.g. --${flag} ${flag}=openai:gpt-4.1)` }); return undefined; }
      try {
        return parseModelSpec(text, { field: `--${flag}` });
      } catch (error) {
        if (error instanceof ConfigError) { issues.push(...error.issues); return undefined; }
        throw error;
      }
    };
    const specs = { generator: role('generator'), answerer: role('answerer'), judge: role('judge') };
    if (!f.description?.trim()) issues.push({ field: '--description', message: 'give the scenario description: a file, or the text itself' });
    const scriptFile = f.script ? resolve(f.script) : undefined;
    for (const [flag, spec] of Object.entries(specs)) {
      if (spec?.spec === 'baseline:script' && !scriptFile) issues.push({ field: `--${flag}`, message: 'baseline:script needs --script <file>' });
    }
    if (issues.length) throw new ConfigError(issues);
    const count = (flag: string, v: string | undefined) => numberFlag(flag, v, positiveInt, 'a whole number >= 1');
    const rounds = count('--rounds', f.rounds);
    const questions = count('--questions', f.questions);
    const anchors = count('--anchors', f.anchors);
    const patience = count('--patience', f.patience);
    const dimensions = f.dimensions ? parseDimensions(f.dimensions) : DEFAULT_DIMENSIONS;
    const given = f.description!;
    const description = (existsSync(given) && statSync(given).isFile() ? readFileSync(given, 'utf8') : given).trim();
    const s = specs as { generator: ModelSpec; answerer: ModelSpec; judge: ModelSpec };
    const model = (spec: ModelSpec) => buildChatModel({ alias: spec.alias, spec, params: {}, ...(spec.spec === 'baseline:script' ? { scriptFile: scriptFile! } : {}) }, { retry: { attempt: 3, intervalSeconds: 2 }, ...(io.env ? { env: io.env } : {}) });
    // Scripts are written relative to the scenario, as `script:` entries are read.
    const scriptRef = scriptFile && (f.out ? relative(dirname(resolve(f.out)), scriptFile) : scriptFile);
    const scripts = {
      ...(s.answerer.spec === 'baseline:script' ? { answerer: scriptRef! } : {}),
      ...(s.judge.spec === 'baseline:script' ? { judge: scriptRef! } : {}),
    };
    const store = await openStore(f.store);
    try {
      const result = await synthesize({
        description, dimensions, store, specs: s,
        models: { generator: model(s.generator), answerer: model(s.answerer), judge: model(s.judge) },
        ...(rounds ? { rounds } : {}), ...(questions ? { questions } : {}), ...(anchors ? { anchors } : {}),
        ...(patience ? { thresholds: { patience } } : {}), ...(f.name ? { name: f.name } : {}),
        ...(Object.keys(scripts).length ? { scripts } : {}), ...(f.out ? { file: f.out } : {}),
        onRound: r => io.stderr(`round ${r.round}: quality ${r.quality.toFixed(3)}, drift ${r.drift === null ? 'n/a' : r.drift.toFixed(3)}, ${r.decision} (best: round ${r.best})\n`),
      });
      io.stderr(`synthesis ${result.runId}: best round ${result.best.round} of ${result.rounds.length}, stopped by ${result.stoppedBy} (store ${store.url})\n`);
      if (f.out) {
        mkdirSync(dirname(f.out), { recursive: true });
        writeFileSync(f.out, result.yaml);
        io.stdout(`${f.out}\n`);
      } else io.stdout(result.yaml);
      return EXIT_CODES.ok;
    } catch (error) {
      if (error instanceof SynthesisError || error instanceof ProviderCallError) {
        io.stderr(`${error.message}\n`);
        return EXIT_CODES.trialsFailed;
      }
      throw error;
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
    .action(async (file: string, f: ValidateFlags) => {
      process.exitCode = await scenarioValidateCommand(file, f);
    });

  scenario.command('run')
    .description('run every dialogue of a scenario, storing each turn as it happens, then judge them')
    .argument('<file>')
    .option('-m, --model <alias=spec>', 'override a scenario model, e.g. teacher=openai:gpt-4.1; repeat an alias to sweep it', collect)
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .option('--resume', 'continue the stored run of this scenario and models (fails if there is none)')
    .option('--repeats <n>', 'dialogues per task (default globals.repeats or 1)')
    .option('--script <file>', 'script for baseline:script overrides')
    .option('--retry-errors', 'continue failed dialogues from their failed turn')
    .option('--no-judge', 'run the dialogues only')
    .option('--report <file>', 'also write the JSON report here')
    .option('--cost-cap <usd>', 'hard cap on the run\'s spend (dialogue turns and judge calls); stops with exit 3 before a call could pass it')
    .option('--prices <file>', 'price table JSON instead of the shipped one')
    .action(async (file: string, f: ScenarioRunFlags) => {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        const { runId, exitCode } = await scenarioRunCommand(file, f, processIO, controller.signal);
        if (runId) process.stdout.write(`${runId}\n`);
        process.exitCode = exitCode;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
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

  scenario.command('synthesize')
    .description('draft a weighted rubric from a scenario description, refine it over rounds of generated questions, and write a runnable scenario')
    .option('--description <file-or-text>', 'the scenario description: a file, or the text')
    .option('--generator <alias=spec>', 'drafts metrics and questions and evolves them')
    .option('--answerer <alias=spec>', 'answers the test questions (the teacher)')
    .option('--judge <alias=spec>', 'scores the answers with the metrics')
    .option('--rounds <n>', 'most rounds (default 5)')
    .option('--questions <n>', 'test questions per round (default 8)')
    .option('--anchors <n>', 'frozen anchor cases re-scored every round (default 4)')
    .option('--patience <n>', 'stop after this many rounds without improvement (default 2)')
    .option('--dimensions <list>', 'seed dimensions as Name=weight,... (default the Elmes+ four)')
    .option('--name <name>', 'scenario name (default synthesized)')
    .option('--script <file>', 'script for baseline:script models')
    .option('-o, --out <file>', 'write the scenario here (default stdout)')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .action(async (f: SynthesizeFlags) => {
      process.exitCode = await scenarioSynthesizeCommand(f);
    });
}
