import { stripControl } from '../core/index.js';
import type { RunEvent } from '../engine/events.js';

/**
 * Progress for people: a bar redrawn in place on a terminal, plain log lines (every 10% or 10 s)
 * otherwise, so CI logs stay readable.
 */
/** Where progress goes: a terminal (redrawn in place) or any other stream (log lines). */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export function createProgress(stream: ProgressStream = process.stderr, trialsAre?: string): (e: RunEvent) => void {
  const tty = stream.isTTY === true;
  let total = 0, done = 0, failed = 0, spent = 0, startDone = 0;
  let started = Date.now(), lastLog = 0, lastDecile = -1, lastDraw = 0;
  // Named as the run starts: stdout gets the id only at the end, and a process killed before
  // that would leave the user to look it up.
  let runId: string | undefined;
  const line = () => {
    const finished = done + failed;
    const rate = (finished - startDone) / Math.max(0.001, (Date.now() - started) / 1000);
    const eta = rate > 0 ? (total - finished) / rate : Infinity;
    const width = 24;
    const filled = total ? Math.round((finished / total) * width) : 0;
    const bar = tty ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    return `${bar}${finished}/${total} (done ${done}, failed ${failed}) cost $${spent.toFixed(4)} ETA ${Number.isFinite(eta) ? formatSeconds(eta) : '?'}`;
  };
  return e => {
    if (e.type === 'start') {
      ({ total, done, failed } = e);
      spent = e.spentUsd;
      startDone = done + failed;
      started = Date.now();
      stream.write(`${runId ? `run ${runId}: ` : ''}${startLine(e, trialsAre)}\n`);
      return;
    }
    if (e.type === 'stop') {
      stream.write(`${tty ? '\n' : ''}stopping: ${stopWhy(e)}; everything done so far is stored.\n`);
      return;
    }
    if (e.type === 'planned') {
      runId = e.runId;
      return;
    }
    if (e.type === 'warning') {
      stream.write(`${tty ? '\n' : ''}warning: ${e.message}\n`);
      return;
    }
    if (e.type === 'retry') {
      if (!tty) stream.write(`retry ${e.attempt} of trial ${e.trial.id} in ${Math.round(e.delayMs)} ms: ${stripControl(e.error)}\n`);
      return;
    }
    if (e.status === 'done') done++;
    else failed++;
    spent = e.spentUsd;
    const now = Date.now();
    const finished = done + failed;
    if (tty) {
      if (now - lastDraw > 80 || finished === total) {
        stream.write(`\r${line()}\x1b[K${finished === total ? '\n' : ''}`);
        lastDraw = now;
      }
      return;
    }
    const decile = total ? Math.floor((finished / total) * 10) : 0;
    if (decile !== lastDecile || now - lastLog > 10_000) {
      stream.write(`${line()}\n`);
      lastDecile = decile;
      lastLog = now;
    }
  };
}

/** Why a run stops, in words. */
export function stopWhy(e: { reason: string; endpoint?: string | undefined }): string {
  if (e.reason === 'cost-cap') return 'the next call could pass the cost cap';
  if (e.reason === 'claim-lost') return 'another process took this run over (or deleted it)';
  if (e.reason === 'unreachable') return `no model server answers at ${e.endpoint ?? '(unknown)'}`;
  return 'interrupted';
}

/** What a session starts with: failed trials run again (`--retry-errors`) still count as failed before. */
export function startLine(e: { pending: number; done: number; failed: number; retried?: number }, trialsAre?: string): string {
  const retried = e.retried ?? 0;
  const again = retried ? ` (${retried} of them run again)` : '';
  return `${e.pending} trial(s)${trialsAre ? ` (${trialsAre})` : ''} to run; ${e.done} done and ${e.failed + retried} failed before${again}.`;
}

function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
