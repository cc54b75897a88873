import { spawn } from 'node:child_process';
import { shellWord } from '../hint.js';
import { CLI_ENTRY, TSX_LOADER, type CliResult } from './run-cli.js';

/**
 * Run a printed command line the way a user pastes it: through a real POSIX shell, with `paideia`
 * defined as the CLI from source. Quoting, placeholders such as `<higher>` and a missing flag all
 * fail here as they would in a terminal.
 */
export function runPasted(line: string, o: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const paideia = [process.execPath, '--import', TSX_LOADER, CLI_ENTRY].map(shellWord).join(' ');
  const child = spawn('sh', ['-c', `paideia() { ${paideia} "$@"; }\n${line}`], {
    cwd: o.cwd,
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  return new Promise(resolve => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
