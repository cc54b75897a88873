import { spawn } from 'node:child_process';
import { shellWord } from '../hint.js';
import { CLI_ENTRY, TSX_LOADER, type CliResult } from './run-cli.js';

/**
 * Run a printed command line the way a user pastes it: through a real POSIX shell, with `paideia`
 * defined as the CLI from source (and `npx paideia` as it). Quoting, placeholders such as `<higher>` and a missing flag all
 * fail here as they would in a terminal.
 */
export function runPasted(line: string, o: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const paideia = [process.execPath, '--import', TSX_LOADER, CLI_ENTRY].map(shellWord).join(' ');
  // `npx paideia` as npm would run it from a checkout: the same CLI (any other npx is the real one)
  const npx = 'npx() { if [ "$1" = paideia ]; then shift; paideia "$@"; else command npx "$@"; fi; }';
  const child = spawn('sh', ['-c', `paideia() { ${paideia} "$@"; }\n${npx}\n${line}`], {
    cwd: o.cwd,
    // npm_command: as if typed in a shell (hints then say `paideia`), unless a test says how it was started
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', npm_command: '', ...o.env },
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
