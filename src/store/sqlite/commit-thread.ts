import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { writeBatch, type BatchOutcome, type BatchSql } from './write-batch.js';
import { decodeWrite, splitWrites } from './write-codec.js';

/** How the commit thread opens its connection: as the store's own, minus what only one connection needs to set. */
export interface CommitThreadOptions {
  path: string;
  sql: BatchSql;
  /** The error codes that are faults of the file (store/faults.ts), as a pattern's source. */
  faultCodes: string;
  /** Pragmas the thread's connection sets, in order (per-connection settings: timeouts, sync, checkpoints, size cap). */
  pragmas: string[];
}

export interface CommitThread {
  /** Apply a batch (encoded writes) in the thread, resolving once its transaction ended (committed, or each write tried alone). */
  send(text: string): Promise<BatchOutcome>;
  /** Close the thread's connection and end the thread. */
  close(): Promise<void>;
}

// better-sqlite3 as this module resolves it: the thread loads the same copy.
const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * The thread's program. It runs as a script of its own (an eval'd worker: a thread does not get the
 * module loader a TypeScript test or tsx runs under), so writeBatch, splitWrites and decodeWrite
 * come in as source text, each with nothing outside it (writeBatch is also what commits on the loop).
 */
const program = `
const { parentPort, workerData } = require('node:worker_threads');
// Run from TypeScript through tsx, the functions' text calls esbuild's __name helper (keepNames).
const __name = target => target;
const Database = require(workerData.driver);
const split = (${splitWrites.toString()});
const decode = (${decodeWrite.toString()});
let db;
let write;
parentPort.on('message', message => {
  if (message === '') {
    try { db?.close(); } finally { parentPort.postMessage({ closed: true }); }
    return;
  }
  try {
    if (!db) {
      db = new Database(workerData.path, { fileMustExist: true });
      for (const p of workerData.pragmas) db.pragma(p);
      write = (${writeBatch.toString()})(db, { sql: workerData.sql, faultCodes: workerData.faultCodes, decode });
    }
    parentPort.postMessage({ outcome: write(split(message)) });
  } catch (e) {
    parentPort.postMessage({ error: { message: String(e && e.message || e), code: e && typeof e.code === 'string' ? e.code : undefined } });
  }
});
`;

/**
 * A thread that commits the store's writes on a connection of its own, so that writing pages,
 * checking claims and checkpointing the WAL run beside the event loop instead of on it. One batch
 * is sent at a time; the thread keeps the process alive only while a batch is in it.
 */
export function startCommitThread(o: CommitThreadOptions): CommitThread {
  // A small young generation: each write's objects die as soon as it is applied, and V8's default
  // let the thread's heap grow to ~41 MB (20,000 trials through the thread: ~16 MB, same CPU).
  const worker = new Worker(program, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 8 }, workerData: { driver, path: o.path, sql: o.sql, faultCodes: o.faultCodes, pragmas: o.pragmas } });
  worker.unref();
  let waiting: { resolve: (m: ThreadReply) => void; reject: (e: unknown) => void } | undefined;
  let dead: Error | undefined;
  type ThreadReply = { outcome?: BatchOutcome; error?: { message: string; code?: string }; closed?: true };
  worker.on('message', (m: ThreadReply) => {
    const w = waiting;
    waiting = undefined;
    worker.unref();
    w?.resolve(m);
  });
  const fail = (e: unknown) => {
    dead ??= Object.assign(new Error(`the store's commit thread ended: ${(e as Error)?.message ?? e}`), { cause: e });
    const w = waiting;
    waiting = undefined;
    w?.reject(dead);
  };
  worker.on('error', fail);
  worker.on('exit', code => fail(new Error(`exit code ${code}`)));

  const ask = (message: string): Promise<ThreadReply> => {
    if (dead) return Promise.reject(dead);
    if (waiting) return Promise.reject(new Error('the commit thread is busy with another batch'));
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject };
      worker.ref();
      worker.postMessage(message);
    });
  };
  return {
    async send(text) {
      const reply = await ask(text);
      if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {});
      return reply.outcome!;
    },
    async close() {
      // An empty batch asks the thread to close its connection.
      if (!dead) await ask('').catch(() => undefined);
      await worker.terminate();
    },
  };
}
