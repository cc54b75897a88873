import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { ConfigError } from './errors.js';

/**
 * Size limits of the files a user (or someone who sent the user a config) names. Beyond these a
 * file is a mistake or an attack (`/dev/zero`, a multi-gigabyte log), not input.
 */
export const FILE_LIMITS = {
  /** Item suites (JSONL), read line by line. */
  items: 512 * 1024 * 1024,
  /** Scenario task files (JSONL read line by line, or CSV). */
  tasks: 64 * 1024 * 1024,
  /** Scenario YAML, price tables, scripts of turns, blind-export score files. */
  config: 16 * 1024 * 1024,
} as const;

const MB = 1024 * 1024;
const describeSize = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${bytes} bytes`);

/**
 * Open a file for reading only if it is a regular file. Opened non-blocking, so a FIFO cannot
 * stall the process, and checked on the open descriptor, so the path cannot be swapped between
 * the check and the read. Returns the descriptor or why the file cannot be used.
 */
function openRegular(file: string, what: string): { fd: number } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `cannot read the ${what}: ${code === 'ENOENT' ? 'ENOENT, no such file' : code ?? (error as Error).message}` };
  }
  const stat = fstatSync(fd);
  if (stat.isFile()) return { fd };
  closeSync(fd);
  const kind = stat.isDirectory() ? 'a folder' : stat.isFIFO() ? 'a pipe' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : stat.isSocket() ? 'a socket' : 'not a regular file';
  return { problem: `the ${what} is ${kind}, not a regular file; name a file` };
}

/**
 * The file's bytes, or why it cannot be used: not a regular file, or larger than `maxBytes`
 * (counted while reading, since device and /proc files report no size).
 */
export function readUserBytes(file: string, what: string, maxBytes: number): { bytes: Buffer } | { problem: string } {
  const opened = openRegular(file, what);
  if ('problem' in opened) return opened;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 * MB, maxBytes + 1 - total));
      const n = readSync(opened.fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) return { problem: `the ${what} is larger than the limit of ${describeSize(maxBytes)}` };
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return { bytes: Buffer.concat(chunks, total) };
  } finally {
    closeSync(opened.fd);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The file as UTF-8 text, or why it cannot be used (see readUserBytes; invalid UTF-8 is named, never replaced by U+FFFD). */
export function readUserText(file: string, what: string, maxBytes: number): { text: string } | { problem: string; line?: number } {
  const read = readUserBytes(file, what, maxBytes);
  if ('problem' in read) return read;
  try {
    return { text: strictUtf8.decode(read.bytes) };
  } catch {
    const line = firstInvalidUtf8Line(read.bytes);
    return { problem: `the ${what} is not valid UTF-8${line ? ` at line ${line}` : ''} (save it as UTF-8, e.g. iconv -f latin1 -t utf-8)`, ...(line ? { line } : {}) };
  }
}

/** The 1-based line holding the first byte sequence that is not UTF-8, so the message can point at it. */
export function firstInvalidUtf8Line(bytes: Buffer): number | undefined {
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      strictUtf8.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end === -1) return undefined;
    start = end + 1;
  }
  return undefined;
}

/** readUserText that throws a ConfigError naming the file. */
export function readUserFile(file: string, what: string, maxBytes: number): string {
  const read = readUserText(file, what, maxBytes);
  if ('problem' in read) throw new ConfigError([{ file, message: read.problem }]);
  return read.text;
}

/** A line of a user's file (1-based number), a line that is not valid UTF-8, or why the file cannot be used at all. */
export type UserLine = { line: number; text: string } | { line: number; notUtf8: true } | { problem: string };

/**
 * The lines of a file (`\r\n` or `\n`), read 1 MB at a time so a large file is never held whole,
 * as a generator: a caller can let the event loop turn between lines. A `problem` ends it.
 */
export function* userLines(file: string, what: string, maxBytes: number): Generator<UserLine, void, undefined> {
  const opened = openRegular(file, what);
  if ('problem' in opened) {
    yield opened;
    return;
  }
  try {
    // The unfinished line's pieces: joined once its end arrives, so a long line costs linear time.
    let pending: Buffer[] = [];
    let line = 1;
    let total = 0;
    const decode = (bytes: Buffer): UserLine => {
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      const at = line++;
      try {
        return { line: at, text: strictUtf8.decode(bytes.subarray(0, end)) };
      } catch {
        return { line: at, notUtf8: true };
      }
    };
    const chunk = Buffer.allocUnsafe(1 * MB);
    for (;;) {
      const n = readSync(opened.fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) {
        yield { problem: `the ${what} is larger than the limit of ${describeSize(maxBytes)}` };
        return;
      }
      const data = chunk.subarray(0, n);
      let start = 0;
      for (let i = data.indexOf(0x0a); i !== -1; i = data.indexOf(0x0a, start)) {
        const piece = data.subarray(start, i);
        const whole = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = i + 1;
        // Decoded before yielding: the buffer is reused by the next read.
        yield decode(whole);
      }
      // The buffer is reused by the next read: keep a copy of the unfinished line.
      if (start < n) pending.push(Buffer.from(data.subarray(start)));
    }
    if (pending.length) yield decode(Buffer.concat(pending));
  } finally {
    closeSync(opened.fd);
  }
}
