import type { RunOutcome } from '../core/run-kind.js';
import type { RunSummary } from '../core/run-event.js';

// The engine's events and counts are contracts its consumers (CLI, web app) share: they live in core.
export type { RunEvent, RunSummary, StopReason } from '../core/run-event.js';

/** What ended a session, as a run kind's outcome carries it: the reason, and under a cost cap the call it refused. */
export function stopOf(s: Pick<RunSummary, 'stoppedBy' | 'refusedUsd'>): Pick<RunOutcome, 'stoppedBy' | 'refusedUsd'> {
  const out: Pick<RunOutcome, 'stoppedBy' | 'refusedUsd'> = {};
  if (s.stoppedBy) out.stoppedBy = s.stoppedBy;
  if (s.refusedUsd !== undefined) out.refusedUsd = s.refusedUsd;
  return out;
}
