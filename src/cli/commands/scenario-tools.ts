// Export and import for blind human scoring, and rubric synthesis: the scenario verbs around a run.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ConfigError, ProviderCallError, parseModelSpec, type ModelSpec } from '../../core/index.js';
import { importHumanScores, writeBlindExport, type BlindFormat } from '../../scenarios/blind/index.js';
import { buildChatModel } from '../../scenarios/models.js';
import { DEFAULT_DIMENSIONS, SynthesisError, parseDimensions, synthesize, type SynthesisConfig, type SynthesisModels } from '../../scenarios/synthesis/index.js';
import { openStore } from '../../store/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { nonNegative, numberFlag, positiveInt } from '../options.js';
import { guarded, processIO, type ScenarioIO } from './scenario-io.js';

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
  /** How the best round is chosen: quality (default) or weighted-mean (SceneGen). */
  select?: string;
}

/**
 * What a synthesis command is given, checked (every problem at once): the roles' specs and models,
 * the description, and the settings every cell shares. `out` is where scenarios are written, so
 * script paths are written relative to it.
 */
export function synthesisSetup(f: SynthesizeFlags, io: ScenarioIO, out: string | undefined): { description: string; base: Omit<SynthesisConfig, 'description' | 'name'>; models: SynthesisModels } {
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
  const scriptRef = scriptFile && (out ? relative(dirname(resolve(out)), scriptFile) : scriptFile);
  const scripts = {
    ...(s.answerer.spec === 'baseline:script' ? { answerer: scriptRef! } : {}),
    ...(s.judge.spec === 'baseline:script' ? { judge: scriptRef! } : {}),
  };
  if (f.select !== undefined && f.select !== 'quality' && f.select !== 'weighted-mean') {
    throw new ConfigError([{ field: '--select', message: `expected quality or weighted-mean, got "${f.select}"` }]);
  }
  return {
    description,
    models: { generator: model(s.generator), answerer: model(s.answerer), judge: model(s.judge) },
    base: {
      dimensions, specs: s, ...(rounds ? { rounds } : {}), ...(questions ? { questions } : {}), ...(anchors ? { anchors } : {}),
      ...(patience ? { thresholds: { patience } } : {}), ...(Object.keys(scripts).length ? { scripts } : {}), ...(out ? { file: out } : {}),
      ...(f.select ? { select: f.select as 'quality' | 'weighted-mean' } : {}),
    },
  };
}

/** `paideia scenario synthesize`: 0 a scenario was written, 1 a model never gave a valid answer or failed, 2 bad input. */
export async function scenarioSynthesizeCommand(f: SynthesizeFlags, io: ScenarioIO = processIO): Promise<number> {
  return guarded(io, async () => {
    const { description, base, models } = synthesisSetup(f, io, f.out);
    const store = await openStore(f.store);
    try {
      const result = await synthesize({
        ...base, description, store, models, ...(f.name ? { name: f.name } : {}),
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
