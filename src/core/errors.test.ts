import { describe, expect, it } from 'vitest';
import { ConfigError, formatLocation } from './errors.js';

describe('error messages quote a short prefix of a bad value', () => {
  it('cuts a long quoted value in an issue and says how long it was', () => {
    const value = 'v'.repeat(760_000);
    const e = new ConfigError([{ file: 'f.yaml', line: 3, field: 'models.a.model', message: `no model "${value}" under models` }]);
    expect(e.message.length).toBeLessThan(300);
    expect(e.issues[0]!.message).toMatch(/^no model "v{80}… \(760000 characters\)" under models$/);
  });

  it('cuts a long field path when printing it', () => {
    expect(formatLocation({ file: 'f.yaml', field: 'k'.repeat(50_000) }).length).toBeLessThan(300);
  });

  it('leaves short messages as they are', () => {
    expect(new ConfigError([{ message: 'expected "a" or "b"' }]).message).toBe('expected "a" or "b"');
  });
});
