import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CLI_ENTRY = fileURLToPath(new URL('../main.ts', import.meta.url));
// Resolved from here, not from the child's working folder (tests run it in empty temp folders).
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Start the real CLI (TypeScript source through tsx) as a child process. */
export function startCli(args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv; as?: { uid: number; gid: number } }): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI_ENTRY, ...args], {
    cwd: o.cwd,
    ...(o.as ?? {}),
    // npm_command: as if typed in a shell (hints then say `paideia`), unless a test says how it was started
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', npm_command: '', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>(resolve => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv; as?: { uid: number; gid: number } }): Promise<CliResult> {
  return startCli(args, o).done;
}

/** Resolve once `condition` holds (polled every 5 ms); reject with `what` after `timeoutMs`. */
export function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (condition()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`timed out waiting: ${what}`));
      }
    }, 5);
  });
}
