import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { startApiServer } from './testing/api-server.js';

const dir = mkdtempSync(join(tmpdir(), 'paideia-editor-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SHIPPED = join(process.cwd(), 'scenarios');

it('the editor lists and opens the scenarios Paideia ships beside the working folder\'s; saving one writes the copy into the working folder', async () => {
  const home = join(dir, 'scenarios');
  mkdirSync(home);
  writeFileSync(join(home, 'mine.yaml'), readFileSync(join(SHIPPED, 'knowledge-explanation.yaml'), 'utf8').replace(/^name: .*$/m, 'name: mine'));
  const store = await openStore(`sqlite:${join(dir, 'e.db')}`);
  const server = await startApiServer(store, dir, { folders: { base: dir, suites: [], scenarios: [home, SHIPPED] } });
  const get = async (path: string) => (await fetch(`${server.url}/api${path}`)).json() as Promise<Record<string, unknown>>;
  try {
    const listed = await get('/scenarios') as { scenarios: Array<{ name: string; shipped: boolean }>; folder: string };
    expect(listed.folder).toBe('scenarios');
    expect(listed.scenarios).toContainEqual({ name: 'mine.yaml', shipped: false });
    expect(listed.scenarios).toContainEqual({ name: 'socratic-problem-solving.yaml', shipped: true });

    const opened = await get('/scenarios/socratic-problem-solving.yaml');
    expect(opened.shipped).toBe(true);
    expect(opened.text).toBe(readFileSync(join(SHIPPED, 'socratic-problem-solving.yaml'), 'utf8'));
    // Checked where it lies: its scripted models' file is beside it.
    const check = await fetch(`${server.url}/api/scenarios/validate`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ name: 'socratic-problem-solving.yaml', text: opened.text }),
    });
    expect(((await check.json()) as { issues: unknown[] }).issues).toEqual([]);

    const saved = await fetch(`${server.url}/api/scenarios/socratic-problem-solving.yaml`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ text: opened.text }),
    });
    const answer = (await saved.json()) as { path: string; issues: unknown[] };
    expect([saved.status, answer.issues, answer.path]).toEqual([200, [], join("scenarios", "socratic-problem-solving.yaml")]);
    expect(existsSync(join(home, 'socratic-problem-solving.yaml'))).toBe(true);
    // The file it names relative to itself came along: the copy loads where it now is.
    expect(readFileSync(join(home, 'scripts', 'socratic-problem-solving.json'), 'utf8')).toBe(readFileSync(join(SHIPPED, 'scripts', 'socratic-problem-solving.json'), 'utf8'));
    const recheck = await fetch(`${server.url}/api/scenarios/validate`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ name: 'socratic-problem-solving.yaml', text: opened.text }),
    });
    expect(((await recheck.json()) as { issues: unknown[] }).issues).toEqual([]);
    // Now the working folder's own: opened from there, listed once.
    expect((await get('/scenarios/socratic-problem-solving.yaml')).shipped).toBe(false);
    const again = await get('/scenarios') as { scenarios: Array<{ name: string; shipped: boolean }> };
    expect(again.scenarios.filter(s => s.name === 'socratic-problem-solving.yaml')).toEqual([{ name: 'socratic-problem-solving.yaml', shipped: false }]);
    expect((await fetch(`${server.url}/api/scenarios/nothing.yaml`)).status).toBe(404);
  } finally {
    await server.close();
    await store.close();
  }
});
