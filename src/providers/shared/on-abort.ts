/** Callbacks waiting on each signal; the signal itself carries one listener for all of them. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Call `fn` once when `signal` aborts, and return the function that stops waiting. A run hands one
 * signal to every call in flight, every retry pause and every queued call: a listener each would
 * put dozens on the signal (node warns past 10, MaxListenersExceededWarning) and cost a
 * registration per call. Here the signal gets one listener, however many wait on it.
 */
export function onAbort(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal || signal.aborted) return () => {};
  let fns = waiting.get(signal);
  if (!fns) {
    const mine = new Set<() => void>();
    fns = mine;
    waiting.set(signal, mine);
    signal.addEventListener('abort', () => {
      waiting.delete(signal);
      for (const f of [...mine]) f();
    }, { once: true });
  }
  const entry = () => fn();
  fns.add(entry);
  return () => void fns.delete(entry);
}
