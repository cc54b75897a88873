import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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

it('checks a shipped scenario as its copy will be: files of the working folder win, paths out of the package are not taken along', async () => {
  const work = mkdtempSync(join(tmpdir(), 'paideia-editor-own-'));
  const home = join(work, 'scenarios');
  mkdirSync(join(home, 'scripts'), { recursive: true });
  mkdirSync(join(home, 'dir.yaml'));
  const script = readFileSync(join(SHIPPED, 'scripts', 'contextual-question-generation.json'), 'utf8');
  writeFileSync(join(home, 'scripts', 'mine.json'), script);
  writeFileSync(join(home, 'scripts', 'socratic-judge-a.json'), '{"not":"a script"}');
  const mine = readFileSync(join(SHIPPED, 'knowledge-explanation.yaml'), 'utf8');
  writeFileSync(join(home, 'my copy.yaml'), mine);
  const store = await openStore(`sqlite:${join(work, 'e.db')}`);
  const server = await startApiServer(store, work, { folders: { base: work, suites: [], scenarios: [home, SHIPPED] } });
  const post = async (path: string, body: object) => {
    const r = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
    return { status: r.status, ...((await r.json()) as { issues: Array<{ text: string }> }) };
  };
  const messages = (r: { issues: Array<{ text: string }> }) => r.issues.map(i => i.text).join('\n');
  try {
    const shipped = readFileSync(join(SHIPPED, 'contextual-question-generation.yaml'), 'utf8');
    // Pointed at the user's own script in the working folder: valid, saved, and the copy loads.
    const own = shipped.replace('script: scripts/contextual-question-generation.json', 'script: scripts/mine.json');
    expect(messages(await post('/scenarios/validate', { name: 'contextual-question-generation.yaml', text: own }))).toBe('');
    expect((await post('/scenarios/contextual-question-generation.yaml', { text: own })).status).toBe(200);
    expect(messages(await post('/scenarios/validate', { name: 'contextual-question-generation.yaml', text: own }))).toBe('');

    // A path out of the package resolves from the working folder, where the copy will be: not found, not saved.
    const outside = shipped.replace('script: scripts/contextual-question-generation.json', 'script: ../package.json');
    const refused = await post('/scenarios/interdisciplinary-lesson-planning.yaml', { text: outside.replace(/^name: .*$/m, 'name: other') });
    expect(refused.status).toBe(400);
    expect(messages(refused)).toMatch(/models\.\w+\.script.*the web app reads files only in the folders it offers \(scenarios, .*\); put .*paideia-editor-own-[^/]+\/package\.json in one of them, or run the scenario with the CLI/);

    // The working folder already has a file the shipped scenario names: the copy would read it, and the check says so.
    const judged = await post('/scenarios/validate', { name: 'socratic-problem-solving.yaml', text: readFileSync(join(SHIPPED, 'socratic-problem-solving.yaml'), 'utf8') }) as unknown as { warnings: string[] };
    expect(judged.warnings).toEqual([`${join('scenarios', 'scripts', 'socratic-judge-a.json')} is your working folder's, not the file shipped with this scenario: the saved copy reads yours`]);

    // Names as the launch page lists them; a folder named like a scenario is no scenario.
    const listed = await (await fetch(`${server.url}/api/scenarios`)).json() as { names: string[] };
    expect(listed.names).toContain('my copy.yaml');
    expect(listed.names).not.toContain('dir.yaml');
    expect(((await (await fetch(`${server.url}/api/scenarios/${encodeURIComponent('my copy.yaml')}`)).json()) as { text: string }).text).toBe(mine);
    expect((await fetch(`${server.url}/api/scenarios/dir.yaml`)).status).toBe(404);
    const overFolder = await post('/scenarios/dir.yaml', { text: mine }) as unknown as { status: number; error: string };
    expect([overFolder.status, overFolder.error]).toEqual([400, expect.stringContaining('scenarios/dir.yaml is a folder, not a scenario file')]);
    const launch = await (await fetch(`${server.url}/api/launch`)).json() as { scenarios: string[] };
    expect(launch.scenarios.some(f => f.endsWith('dir.yaml'))).toBe(false);
  } finally {
    await server.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
});

it('reads no file a scenario names outside the folders the server offers: not in the editor\'s check or save, not when a page launches it', async () => {
  const work = mkdtempSync(join(tmpdir(), 'paideia-editor-fence-'));
  const home = join(work, 'scenarios');
  mkdirSync(home);
  // A secret beside the server's folders, shaped as a task file would be.
  const secret = join(work, 'creds.csv');
  writeFileSync(secret, 'key\nsk-live-0123456789\n');
  const store = await openStore(`sqlite:${join(work, 'e.db')}`);
  const server = await startApiServer(store, work, { folders: { base: work, suites: [], scenarios: [home, SHIPPED] } });
  const post = async (path: string, body: object) => {
    const r = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
    return { status: r.status, text: await r.text() };
  };
  try {
    const shipped = readFileSync(join(SHIPPED, 'knowledge-explanation.yaml'), 'utf8');
    const script = shipped.replace('script: scripts/knowledge-explanation.json', 'script: /etc/passwd');
    const checked = await post('/scenarios/validate', { name: 'leak.yaml', text: script });
    expect(checked.text).toMatch(/"field":"models\.teacher\.script".*the web app reads files only in the folders it offers/);
    expect(checked.text).not.toMatch(/root:/);
    const tasks = shipped.replace(/^tasks:\n(?: .*\n|\n)*/m, `tasks:\n  mode: iter\n  file: ${secret}\n`);
    const saved = await post('/scenarios/leak.yaml', { text: tasks });
    expect(saved.status).toBe(400);
    expect(saved.text).toMatch(/"field":"tasks\.file".*the web app reads files only in the folders it offers/);
    expect(saved.text).not.toContain('sk-live');
    expect(existsSync(join(home, 'leak.yaml'))).toBe(false);
    // Written there by other means (the CLI reads it), a page still cannot run it.
    writeFileSync(join(home, 'leak.yaml'), tasks);
    const launched = await post('/launch', { config: { kind: 'scenario', file: join(home, 'leak.yaml') } });
    expect(launched.status).toBe(400);
    expect(launched.text).toMatch(/tasks\.file.*the web app reads files only in the folders it offers/);
    expect(launched.text).not.toContain('sk-live');
    expect(await store.listRuns()).toEqual([]);
  } finally {
    await server.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
});

it('saves say what they kept, keep no version of an unchanged text, and refuse bad bodies and blocked copies with a 400 that says why', async () => {
  const work = mkdtempSync(join(tmpdir(), 'paideia-editor-save-'));
  const home = join(work, 'scenarios');
  mkdirSync(home);
  // A file where the first save of a shipped scenario would put its scripts folder.
  writeFileSync(join(home, 'scripts'), 'not a folder');
  const store = await openStore(`sqlite:${join(work, 'e.db')}`);
  const server = await startApiServer(store, work, { folders: { base: work, suites: [], scenarios: [home, SHIPPED] } });
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  try {
    const shipped = readFileSync(join(SHIPPED, 'knowledge-explanation.yaml'), 'utf8');
    const blocked = await post('/scenarios/knowledge-explanation.yaml', { text: shipped });
    expect(blocked.status).toBe(400);
    expect(JSON.stringify(blocked.json)).toMatch(/scenarios\/scripts\/knowledge-explanation\.json cannot be written beside the copy: a file stands where its folder scenarios\/scripts should be; move that file, then save again/);
    expect(existsSync(join(home, 'knowledge-explanation.yaml'))).toBe(false);

    for (const body of [{ text: 5 }, { text: ['a'] }]) {
      const bad = await post('/scenarios/x.yaml', body);
      expect([bad.status, JSON.stringify(bad.json)]).toEqual([400, expect.stringMatching(/the scenario text must be a string/)]);
    }
    expect((await post('/scenarios/validate', { text: 5 })).status).toBe(400);

    rmSync(join(home, 'scripts'));
    const first = await post('/scenarios/knowledge-explanation.yaml', { text: shipped });
    expect([first.status, first.json.kept]).toEqual([200, null]);
    // The same text again is not written: the file keeps its time, so a run launched from it sees no change.
    const saved = join(home, 'knowledge-explanation.yaml');
    utimesSync(saved, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const mtime = statSync(saved).mtimeMs;
    const same = await post('/scenarios/knowledge-explanation.yaml', { text: shipped });
    expect([same.status, same.json.kept]).toEqual([200, null]);
    expect(statSync(saved).mtimeMs).toBe(mtime);
    const edited = await post('/scenarios/knowledge-explanation.yaml', { text: `${shipped}# edited\n` });
    expect(edited.json.kept).toMatch(/^scenarios\/knowledge-explanation\.yaml\.v\d+$/);
    expect(readFileSync(join(work, edited.json.kept as string), 'utf8')).toBe(shipped);
    expect(readdirSync(home).filter(f => f.startsWith('knowledge-explanation.yaml.v'))).toHaveLength(1);
  } finally {
    await server.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
});

it('follows no link out of the scenario folder: a linked file is not listed, opened or written through, and a linked scripts folder takes no copies', async () => {
  const work = mkdtempSync(join(tmpdir(), 'paideia-editor-links-'));
  const home = join(work, 'scenarios');
  const outside = join(work, 'outside');
  mkdirSync(home);
  mkdirSync(outside);
  const secret = join(outside, 'secret.yaml');
  writeFileSync(secret, 'name: secret # sk-live-0123456789\n');
  symlinkSync(secret, join(home, 'evil.yaml'));
  symlinkSync(outside, join(home, 'scripts'));
  const store = await openStore(`sqlite:${join(work, 'e.db')}`);
  const server = await startApiServer(store, work, { folders: { base: work, suites: [], scenarios: [home, SHIPPED] } });
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
    return { status: r.status, text: await r.text() };
  };
  try {
    const listed = await (await fetch(`${server.url}/api/scenarios`)).json() as { names: string[] };
    expect(listed.names).not.toContain('evil.yaml');
    const opened = await fetch(`${server.url}/api/scenarios/evil.yaml`);
    expect(opened.status).toBe(404);
    expect(await opened.text()).not.toContain('sk-live');
    const mine = readFileSync(join(SHIPPED, 'socratic-problem-solving.yaml'), 'utf8');
    const through = await post('/scenarios/evil.yaml', { text: mine });
    expect([through.status, through.text]).toEqual([400, expect.stringContaining('scenarios/evil.yaml is a link to a file outside scenarios or to nothing; the editor writes only there')]);
    expect(readFileSync(secret, 'utf8')).toBe('name: secret # sk-live-0123456789\n');
    expect(readdirSync(home).filter(f => f.startsWith('evil.yaml.v'))).toEqual([]);
    // A shipped scenario's first save would copy its scripts through the link.
    const copied = await post('/scenarios/socratic-problem-solving.yaml', { text: mine });
    expect([copied.status, copied.text]).toEqual([400, expect.stringContaining('scenarios/scripts leads outside scenarios (a link)')]);
    expect(readdirSync(outside)).toEqual(['secret.yaml']);
    // A link to another scenario of the folder is not written through either: that file would change.
    const own = join(home, 'own.yaml');
    writeFileSync(own, mine);
    symlinkSync(own, join(home, 'alias.yaml'));
    const aliased = await post('/scenarios/alias.yaml', { text: `${mine}# edited\n` });
    expect([aliased.status, aliased.text]).toEqual([400, expect.stringContaining('scenarios/alias.yaml is a link to scenarios/own.yaml; open that file to edit it')]);
    expect(readFileSync(own, 'utf8')).toBe(mine);
    expect(readdirSync(home).filter(f => f.includes('.yaml.v'))).toEqual([]);
    // Nor a link to a file not there yet: the save would make it outside the folder.
    symlinkSync(join(outside, 'made.yaml'), join(home, 'dangling.yaml'));
    const dangling = await post('/scenarios/dangling.yaml', { text: mine });
    expect([dangling.status, dangling.text]).toEqual([400, expect.stringContaining('scenarios/dangling.yaml is a link to a file outside scenarios or to nothing')]);
    expect(readdirSync(outside)).toEqual(['secret.yaml']);
  } finally {
    await server.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
});
