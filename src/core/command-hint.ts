import { delimiter, resolve } from 'node:path';

/** Characters a POSIX shell reads as themselves outside quotes. */
const SAFE = /^[\w@%+=:,./-]+$/;

/** One argument as a shell reads it back: quoted only when it has to be. */
export function shellWord(arg: string): string {
  return SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command line to print as a hint, ready to paste. It always names the store (`store.url` is an
 * absolute path): pasted without it, the command looks in `.paideia/paideia.db` and finds no run.
 */
export function commandHint(args: string[], store: string, env: NodeJS.ProcessEnv = process.env): string {
  return [...commandPrefix(env), ...args, '--store', store].map(shellWord).join(' ');
}

/**
 * How the user started this command, so a hint pasted in the same shell runs: through npm
 * (`npx paideia`, or an npm script in a checkout, where `paideia` is not on the shell's PATH) the
 * hint says `npx paideia`; started as `node bin/paideia.js` (what the README gives scripts), it
 * says `node` and that file's absolute path; started by a `paideia` link, it says `paideia` when
 * the link's folder is on the PATH (a global install), else the link's path
 * (`node_modules/.bin/paideia` in a project).
 */
export function commandPrefix(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string[] {
  if (NPM_COMMANDS.has(env['npm_command'] ?? '')) return ['npx', 'paideia'];
  if (!script) return ['paideia'];
  if (/(^|[\\/])paideia\.js$/.test(script)) return ['node', script];
  const link = /^(.*)[\\/]paideia$/.exec(script);
  if (link && !(env['PATH'] ?? '').split(delimiter).some(folder => folder && resolve(folder) === resolve(link[1]!))) return [script];
  return ['paideia'];
}

// What npm sets npm_command to: `exec` under npx, `run-script` for `npm run` up to npm 10, `run` from npm 11.
const NPM_COMMANDS = new Set(['exec', 'run-script', 'run']);
