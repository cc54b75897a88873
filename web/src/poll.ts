import { api } from './api.js';

/** How often a page asks the server again about runs another process (or this server) works on. */
const POLL_MS = 2000;

/**
 * Ask `path` every POLL_MS until `seen` says to stop (returns true); a failed ask is tried again
 * next time. Returns the function that stops the asking (a page left, or drawn again).
 */
export function pollApi<T>(path: string, seen: (answer: T) => boolean): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = () => {
    timer = setTimeout(async () => {
      const answer = await api<T>(path).then(a => ({ a }), () => undefined);
      // Stopped while the answer was on its way: nothing more is done.
      if (timer === undefined) return;
      if (answer && seen(answer.a)) return;
      ask();
    }, POLL_MS);
  };
  ask();
  return () => { clearTimeout(timer); timer = undefined; };
}
