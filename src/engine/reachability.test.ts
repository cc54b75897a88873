import { describe, expect, it } from 'vitest';
import { ProviderCallError } from '../core/index.js';
import { createReachability, unreachableCode } from './reachability.js';

const refused = () => new ProviderCallError({
  message: 'API at http://127.0.0.1:9/v1 could not be reached: ECONNREFUSED.', kind: 'network', isRetryable: true,
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
});
const http500 = () => new ProviderCallError({ message: 'returned HTTP 500', kind: 'http', statusCode: 500, isRetryable: true });
const url = 'http://127.0.0.1:9/v1';

function breaker() {
  const dead: string[] = [];
  const r = createReachability({ onDead: (endpoint, error) => dead.push(`${endpoint} ${error}`) });
  return { r, dead };
}

describe('unreachableCode', () => {
  it('finds the socket code in the cause chain, and nothing in an HTTP error or a reset connection', () => {
    expect(unreachableCode(refused())).toBe('ECONNREFUSED');
    expect(unreachableCode(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }))).toBe('ENOTFOUND');
    expect(unreachableCode(http500())).toBeUndefined();
    expect(unreachableCode(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBeUndefined();
  });
});

describe('createReachability', () => {
  it('declares an endpoint that never answered dead after three refused attempts, and aborts its calls', () => {
    const { r, dead } = breaker();
    const signal = r.signal(url);
    r.attemptFailed(url, refused());
    r.attemptFailed(url, refused());
    expect(r.isDead(url)).toBe(false);
    r.attemptFailed(url, refused());
    expect(r.isDead(url)).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(dead).toEqual([`${url} ECONNREFUSED`]);
    // told once, whatever else fails after
    r.callFailed(url, refused());
    expect(dead).toHaveLength(1);
  });

  it('declares it dead at once when a call that never reached it fails for good (no retries left)', () => {
    const { r } = breaker();
    r.callFailed(url, refused());
    expect(r.isDead(url)).toBe(true);
    expect(r.dead).toEqual({ endpoint: url, error: 'ECONNREFUSED' });
  });

  it('keeps retrying a live server: 500s never trip it, and after an answer only three dead calls in a row do', () => {
    const { r } = breaker();
    for (let i = 0; i < 20; i++) r.attemptFailed(url, http500());
    r.callFailed(url, http500());
    expect(r.isDead(url)).toBe(false);
    r.answered(url);
    // a restart: many refused attempts within calls still retrying are not enough
    for (let i = 0; i < 10; i++) r.attemptFailed(url, refused());
    r.callFailed(url, refused());
    r.callFailed(url, refused());
    expect(r.isDead(url)).toBe(false);
    // an answer in between starts the count again
    r.answered(url);
    r.callFailed(url, refused());
    r.callFailed(url, refused());
    expect(r.isDead(url)).toBe(false);
    r.callFailed(url, refused());
    expect(r.isDead(url)).toBe(true);
  });

  it('judges each endpoint on its own', () => {
    const { r } = breaker();
    const other = 'http://127.0.0.1:10/v1';
    r.answered(other);
    r.callFailed(url, refused());
    expect(r.isDead(url)).toBe(true);
    expect(r.isDead(other)).toBe(false);
    expect(r.signal(other).aborted).toBe(false);
  });
});
