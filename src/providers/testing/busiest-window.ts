/** The most events in any window of `ms` milliseconds: how a rate limit looks from the server's side. */
export function busiestWindow(times: ReadonlyArray<number>, ms: number): number {
  const t = [...times].sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}
