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
export function commandHint(args: string[], store: string): string {
  return ['paideia', ...args, '--store', store].map(shellWord).join(' ');
}
