import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../core/index.js';

// What a path a user named can fail with that the user fixes by naming another, in words.
const UNWRITABLE: Readonly<Record<string, string>> = {
  EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'a read-only file system',
  EEXIST: 'a part of the path is a file, not a folder', ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder', ENAMETOOLONG: 'the name is too long',
};

/**
 * Write a file a flag named (its folder made); a path that cannot be written is bad input naming
 * the flag, with `otherwise` (what else the command can do: print it) after the advice.
 */
export function writeOutFile(path: string, text: string | Uint8Array, field: string, otherwise?: string): void {
  unwritable(path, field, `name a file in a folder you can write${otherwise ? `, ${otherwise}` : ''}`, () => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  });
}

/** Make the folder a flag named (before the work that fills it); one that cannot be made is bad input naming the flag. */
export function makeOutFolder(path: string, field: string): void {
  unwritable(path, field, 'name a folder you can write (it is made if missing)', () => mkdirSync(path, { recursive: true }), {
    EEXIST: 'it is a file, not a folder',
  });
}

function unwritable(path: string, field: string, advice: string, write: () => void, reasons: Readonly<Record<string, string>> = {}): void {
  try {
    write();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code ? reasons[code] ?? UNWRITABLE[code] : undefined;
    if (!why) throw error;
    throw new ConfigError([{ field, message: `cannot write ${path} (${why}): ${advice}` }]);
  }
}

/** A report where --out says: `-` (or no file) prints it; a file is written and its path printed. */
export function emitReport(text: string, out: string | undefined, print: (text: string) => void): void {
  if (out === undefined || out === '-') {
    print(text);
    return;
  }
  writeOutFile(out, text, '--out', 'or print it with --out -');
  print(`${out}\n`);
}
