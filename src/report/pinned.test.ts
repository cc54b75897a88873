import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { pinnedReport, pinnedRun } from './testing/pinned-run.js';

// The fixture is the JSON report of the same run as built by the report code before reports were
// read a page at a time (testing/write-pinned-report.ts at that commit): every number to the last bit, every key.
it('builds the JSON report of a real run, number for number and key for key, as the fixture recorded it', async () => {
  const store = await openStore('sqlite::memory:');
  const runId = await pinnedRun(store, mkdtempSync(join(tmpdir(), 'paideia-pinned-')));
  const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/pinned-report.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  expect(await pinnedReport(store, runId)).toEqual(fixture);
  await store.close();
});
