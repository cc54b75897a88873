import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Env } from '../core/index.js';
import { BASELINE_NAMES } from '../providers/baseline/index.js';
import { readableIn, type LaunchFolders } from './launch-paths.js';

export type { LaunchFolders } from './launch-paths.js';

/** A provider the server can call, and whether its key is set: the key itself never leaves the server. */
export interface ProviderChoice {
  provider: string;
  example: string;
  keyVariable: string | null;
  ready: boolean;
}

const PROVIDERS: ReadonlyArray<Omit<ProviderChoice, 'ready'>> = [
  { provider: 'openai', example: 'openai:gpt-4.1-mini', keyVariable: 'OPENAI_API_KEY' },
  { provider: 'anthropic', example: 'anthropic:claude-sonnet-4-5', keyVariable: 'ANTHROPIC_API_KEY' },
  { provider: 'ollama', example: 'ollama:llama3.2', keyVariable: null },
];

/** What the launch page offers: suite folders, scenario files, and the models the server can reach. */
export function launchChoices(env: Env, folders: LaunchFolders) {
  // Paths the run kinds resolve from the working folder: relative inside it, absolute outside.
  const rel = (p: string) => { const r = relative(folders.base, p); return r && !r.startsWith('..') ? r : p; };
  // Only what a launch then accepts: a link to a file or folder outside the offered folders is not offered.
  const readable = readableIn(folders);
  const offered = (p: string) => readable(p) === undefined;
  const suites = folders.suites.flatMap(dir => subfolders(dir).filter(d => offered(d) && readdirSync(d).some(f => f.endsWith('.jsonl')))).map(rel);
  const scenarios = folders.scenarios.flatMap(dir => (existsSync(dir) ? readdirSync(dir).filter(f => /\.ya?ml$/.test(f)).map(f => join(dir, f)).filter(f => { try { return statSync(f).isFile() && offered(f); } catch { return false; } }) : [])).map(rel);
  return {
    suites: [...new Set(suites)], scenarios: [...new Set(scenarios)],
    baselines: BASELINE_NAMES.map(n => `baseline:${n}`),
    providers: PROVIDERS.map(p => ({ ...p, ready: p.keyVariable === null || Boolean(env[p.keyVariable]) })),
  };
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map(d => join(dir, d)).filter(d => statSync(d).isDirectory());
}
