import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { startApiServer } from '../../web/testing/api-server.js';
import { servedFolders } from './serve.js';

const dir = mkdtempSync(join(tmpdir(), 'paideia-serve-folders-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Through the API the page reads, not the CLI process: that one needs the built front end, which a
// clean checkout has only after `npm run build`.
it('serve started outside the checkout offers the scenarios Paideia ships beside its sample suites', async () => {
  const store = await openStore(`sqlite:${join(dir, 'elsewhere.db')}`);
  const server = await startApiServer(store, dir, { folders: servedFolders(dir) });
  try {
    const launch = await (await fetch(`${server.url}/api/launch`)).json() as { scenarios: string[]; suites: string[] };
    expect(launch.scenarios.some(f => f.endsWith('/scenarios/socratic-problem-solving.yaml'))).toBe(true);
    expect(launch.suites.length).toBeGreaterThan(0);
  } finally {
    await server.close();
    await store.close();
  }
});
