import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { openError } from './connect.js';

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
});
