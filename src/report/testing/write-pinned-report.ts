/**
 * Writes __fixtures__/pinned-report.json: the JSON report of pinnedRun as the report code of the
 * commit that made it builds it. Run with `npx tsx src/report/testing/write-pinned-report.ts`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../store/index.js';
import { pinnedReport, pinnedRun } from './pinned-run.js';

const store = await openStore('sqlite::memory:');
const runId = await pinnedRun(store, mkdtempSync(join(tmpdir(), 'paideia-pinned-')));
writeFileSync(fileURLToPath(new URL('../__fixtures__/pinned-report.json', import.meta.url)), `${JSON.stringify(await pinnedReport(store, runId), null, 1)}\n`);
await store.close();
