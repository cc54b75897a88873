import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { checkUrl, openError, withRetry } from './connect.js';

describe('openError', () => {
  it('a server asking for a password the URL lacks is bad input naming PGPASSWORD, not a store fault', () => {
    // The error pg raises when scram-sha-256 asks for a password and none was configured.
    const e = openError('postgres://paideia@127.0.0.1:15433/paideia', new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toMatch(/export PGPASSWORD=/);
    expect(e.message).toContain('postgres://USER:PASSWORD@127.0.0.1:15433/paideia');
  });

  it('a refused login names the user and where the password goes', () => {
    const e = openError('postgres://ana@db:5432/lab', Object.assign(new Error('password authentication failed for user "ana"'), { code: '28P01' }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toMatch(/refused the login of ana/);
  });

  it('a URL that does not parse is bad input shown without its password, saying how to write one with # / ? in it', () => {
    for (const [url, shown] of [
      ['postgres://qa:pa#ss@127.0.0.1:5432/lab', 'postgres://qa:***@127.0.0.1:5432/lab'],
      ['postgres://qa:a/b?c@db.lab/lab', 'postgres://qa:***@db.lab/lab'],
      ['postgres://qa:secret@127.0.0.1:notaport/lab', 'postgres://qa:***@127.0.0.1:notaport/lab'],
    ] as const) {
      let error: unknown;
      try { checkUrl(url); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(`"${shown}" is not a URL`);
      expect(message).not.toMatch(/pa#ss|a\/b\?c|secret/);
      expect(message).toMatch(/percent-encoded \(# as %23, \/ as %2F\), or left out of the URL and set in PGPASSWORD/);
    }
    // Without a password there is nothing to hide and nothing to encode.
    expect(() => checkUrl('postgres://qa@127.0.0.1:notaport/lab')).toThrow(/"postgres:\/\/qa@127.0.0.1:notaport\/lab" is not a URL; expected [^;]*$/);
  });

  it('a missing database says how to create it, also for a user who may not create databases', () => {
    const e = openError('postgres://ana:pw@db.lab:5433/lab', Object.assign(new Error('database "lab" does not exist'), { code: '3D000' }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain('create it with: createdb -h db.lab -p 5433 -U ana lab');
    expect(e.message).toContain('(if ana may not create databases, as a superuser: createdb -h db.lab -p 5433 -U postgres -O ana lab)');
  });
});

describe('withRetry', () => {
  it('gives up once the server has been down for the window, not a whole window per operation after it', async () => {
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
    let since: number | undefined;
    const health = { failing: () => { since ??= Date.now(); }, answered: () => { since = undefined; }, downForMs: () => (since === undefined ? 0 : Date.now() - since) };
    const timed = async () => {
      const t0 = Date.now();
      await expect(withRetry(refused, 1_000, health)).rejects.toThrow(/ECONNREFUSED/);
      return Date.now() - t0;
    };
    // The first operation retries for most of its second; the next only for what is left of the
    // second since the server went down (each alone would take ~700 ms: 100 + 200 + 400).
    const first = await timed();
    const second = await timed();
    expect(first).toBeGreaterThanOrEqual(600);
    expect(first + second).toBeLessThan(1_200);
    // Once the server answers, a later outage has its own window again.
    expect(await withRetry(() => Promise.resolve(7), 1_000, health)).toBe(7);
    expect(await timed()).toBeGreaterThanOrEqual(600);
  });
});
