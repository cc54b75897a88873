import type { Env } from '../../core/env.js';
import { ConfigError, formatLocation, parseModelSpec, stripControl, type ModelSpec } from '../../core/index.js';
import { EXIT_CODES } from '../exit-codes.js';

/** Where the commands write; tests pass their own. */
export interface ScenarioIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: Env;
}

export const processIO: ScenarioIO = { stdout: t => process.stdout.write(t), stderr: t => process.stderr.write(t) };
export const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Every issue on its own line, `file:line, field "x": message`, so editors can jump to it. */
export function printIssues(error: ConfigError, io: ScenarioIO): void {
  // One problem per line, after "error: " as every command says it.
  error.issues.forEach((issue, i) => {
    const where = formatLocation(issue);
    // Messages quote YAML keys and file text: escape sequences in them must not reach the terminal.
    io.stderr(stripControl(`${i === 0 ? 'error: ' : ''}${where ? `${where}: ` : ''}${issue.message}\n`));
  });
}

/** Run a command body; bad input is printed as issues and becomes exit code 2. */
export async function guarded(io: ScenarioIO, body: () => Promise<number>): Promise<number> {
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

export function parseOverrides(models: string[] | undefined): ModelSpec[] {
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
