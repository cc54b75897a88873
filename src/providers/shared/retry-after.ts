/**
 * How long the server asked us to wait, in milliseconds, or undefined when it did not say.
 * `retry-after-ms` (sent by OpenAI and Anthropic) is more precise than `retry-after`, so it wins.
 * `retry-after` may be delta-seconds or an HTTP-date (RFC 9110 §10.2.3); a date in the past means 0.
 */
export function parseRetryAfter(headers: Pick<Headers, 'get'>, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
