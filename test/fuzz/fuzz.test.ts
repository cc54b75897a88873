import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { itemCases, scenarioCases } from './mutate.js';
import { runCase } from './oracle.js';
import { SCENARIO_SEEDS, VALID_ITEM } from './seeds.js';

/**
 * A few hundred seeded cases per kind in every `npm test`; `npx tsx test/fuzz/run.ts` runs
 * thousands (see docs/security.md). Target: no crash (every refusal is a ConfigError naming file
 * and line, which the CLI prints without a stack and exits 2 on) and no hang.
 */
const CASES = 250;
/** Slowest a case may take; the largest union allowed (250,000 tasks) takes about 3 s on a busy core. */
const MAX_CASE_MS = 8000;
const dir = mkdtempSync(join(tmpdir(), 'paideia-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seeded fuzzing of the loaders', () => {
  it.each([
    ['items', () => itemCases(20261201, CASES, VALID_ITEM)],
    ['scenario', () => scenarioCases(20261202, CASES, SCENARIO_SEEDS)],
  ] as const)('%s files: no crash and no hang', (kind, make) => {
    const crashes: string[] = [];
    const outcomes = { loaded: 0, refused: 0 };
    for (const c of make()) {
      const started = performance.now();
      const outcome = runCase(kind, c, dir);
      const ms = performance.now() - started;
      if (outcome.kind === 'crashed') crashes.push(`case ${c.index} (${c.label.slice(0, 100)}): ${outcome.why}`);
      else outcomes[outcome.kind]++;
      if (ms > MAX_CASE_MS) crashes.push(`case ${c.index} (${c.label.slice(0, 100)}) took ${Math.round(ms)} ms`);
    }
    expect(crashes).toEqual([]);
    // The mutations must reach both sides of the loaders, or the fuzzing proves nothing.
    expect(outcomes.loaded).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(CASES / 2);
  });
});
