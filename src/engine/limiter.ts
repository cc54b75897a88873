/** A FIFO semaphore: at most `limit` tasks run at once. A freed slot passes straight to the next waiter. */
export function createLimiter(limit: number) {
  if (!(limit >= 1)) throw new RangeError(`concurrency limit must be >= 1, got ${limit}`);
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (active < limit) active++;
    else await new Promise<void>(resolve => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
