import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAIDEIA_VERSION } from './version.js';

describe('PAIDEIA_VERSION', () => {
  it('is the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(PAIDEIA_VERSION).toBe(pkg.version);
  });
});
