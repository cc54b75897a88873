import type { Command } from 'commander';
import { ConfigError, stripControl } from '../../core/index.js';
import { renderStudy } from '../../report/scenario/studies.js';
import { loadScenario } from '../../scenarios/index.js';
import { ablationStudy, parseAblations, stabilityStudy, type AblationStudy, type StabilityStudy } from '../../scenarios/studies/index.js';
import { DEFAULT_STORE_URL, openStore } from '../../store/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { commandHint } from '../hint.js';
import { numberFlag, positiveInt } from '../options.js';
import { emitReport } from '../report-out.js';
import { collect, guarded, parseOverrides, processIO, type ScenarioIO } from './scenario-io.js';

export interface StudyFlags {
  model?: string[];
  baseUrl?: string;
  script?: string;
  store: string;
  repeats?: string;
  judgeRepeats?: string;
  variants?: string;
  costCap?: string;
  format?: string;
  out?: string;
}

/** `paideia scenario stability|ablate FILE`: judge a stored run's dialogues again; exit 0, 1 some judge calls failed, 2 bad input, 3 stopped. */
export async function scenarioStudyCommand(study: 'stability' | 'ablation', file: string, f: StudyFlags, io: ScenarioIO = processIO, signal?: AbortSignal): Promise<number> {
  return guarded(io, async () => {
    const format = f.format ?? 'md';
    if (format !== 'md' && format !== 'json') throw new ConfigError([{ field: '--format', message: `expected md or json, got "${format}"` }]);
    const repeats = numberFlag('--repeats', f.repeats, positiveInt, 'a whole number >= 1');
    const costCapUsd = numberFlag('--cost-cap', f.costCap, n => Number.isFinite(n) && n >= 0, 'an amount in USD >= 0');
    const variants = study === 'ablation' ? parseAblations(f.variants) : [];
    const judgeRepeats = study === 'stability' ? numberFlag('--judge-repeats', f.judgeRepeats ?? '10', positiveInt, 'a whole number >= 2')! : 0;
    const scenario = loadScenario(file, {
      models: parseOverrides(f.model), ...(io.env ? { env: io.env } : {}), ...(f.script ? { scriptFile: f.script } : {}), ...(f.baseUrl ? { baseUrl: f.baseUrl } : {}),
    });
    for (const w of scenario.warnings) io.stderr(`warning: ${stripControl(w)}\n`);
    if (scenario.keyIssues.length > 0) throw new ConfigError(scenario.keyIssues);
    const store = await openStore(f.store, { mustExist: true });
    try {
      const runArgs = ['scenario', 'run', file, ...(f.model ?? []).flatMap(m => ['--model', m]), ...(f.baseUrl ? ['--base-url', f.baseUrl] : []),
        ...(f.script ? ['--script', f.script] : []), ...(f.repeats ? ['--repeats', f.repeats] : [])];
      const common = { store, scenario, runHint: commandHint(runArgs, store.url), ...(repeats ? { repeats } : {}), ...(io.env ? { env: io.env } : {}), ...(costCapUsd !== undefined ? { costCapUsd } : {}), ...(signal ? { signal } : {}) };
      const result: StabilityStudy | AblationStudy = study === 'stability'
        ? await stabilityStudy({ ...common, judgeRepeats })
        : await ablationStudy({ ...common, variants });
      const text = format === 'json' ? JSON.stringify(result, null, 2) + '\n' : renderStudy(result);
      emitReport(text, f.out, io.stdout);
      io.stderr(`run ${result.runId}: ${result.judgments} judgment(s) in this study, ${result.failed} failed, ${result.pending} left\n`);
      if (result.pending > 0) return EXIT_CODES.stopped;
      return result.failed > 0 ? EXIT_CODES.trialsFailed : EXIT_CODES.ok;
    } finally {
      await store.close();
    }
  });
}

export function registerScenarioStudies(scenario: Command): void {
  const common = (c: Command) => c
    .argument('<file>')
    .option('-m, --model <alias=spec>', 'the same model bindings as the scenario run (they name its run)', collect)
    .option('--base-url <url>', 'endpoint of every openai model, as scenario run --base-url')
    .option('--script <file>', 'script for baseline:script overrides')
    .option('--repeats <n>', 'dialogues per task of the stored run (as given to scenario run)')
    .option('--store <url>', 'sqlite:<path>', DEFAULT_STORE_URL)
    .option('--cost-cap <usd>', 'hard cap on the run\'s spend; stops with exit 3 before a call could pass it')
    .option('--format <format>', 'md or json', 'md')
    .option('-o, --out <file>', 'write to a file instead of stdout');
  common(scenario.command('stability')
    .description('judge every stored dialogue of a scenario run again, N times per judge, and report the variance per judge x model x dimension (beside the experts\' when imported); only judges are called'))
    .option('--judge-repeats <n>', 'judgments per judge and dialogue (Elmes+ uses 10)', '10')
    .action(async (file: string, f: StudyFlags) => {
      process.exitCode = await scenarioStudyCommand('stability', file, f);
    });
  common(scenario.command('ablate')
    .description('judge the stored dialogues of a scenario run under judge variants and report each one\'s deviation from the experts and agreement (Kendall tau-b, ICC) with intervals; only judges are called'))
    .option('--variants <list>', 'comma-separated: file, reasoning-on, reasoning-off, temperature-0, temperature-default, anchors-on, anchors-off, mode-tool, mode-prompt (default all but anchors-on)')
    .action(async (file: string, f: StudyFlags) => {
      process.exitCode = await scenarioStudyCommand('ablation', file, f);
    });
}
