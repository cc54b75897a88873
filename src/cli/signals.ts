import type { RunHandle } from '../engine/start.js';

/**
 * First Ctrl-C: start nothing new, let the calls in flight finish and be stored (they are paid
 * for). A second one, or SIGTERM, aborts them; either way everything stored is resumable.
 * Returns the function that detaches the handlers.
 */
export function stopOnSignals(handle: Pick<RunHandle, 'stop' | 'abort'>): () => void {
  const onSigint = () => {
    process.stderr.write('\nfinishing the calls in flight; press Ctrl-C again to abort them\n');
    handle.stop();
    process.once('SIGINT', () => handle.abort());
  };
  const onSigterm = () => handle.abort();
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  return () => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  };
}
