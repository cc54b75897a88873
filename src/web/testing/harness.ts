import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import type { Store } from '../../core/index.js';
import { launchBrowser } from '../../learning/decks/browser.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeReplyFunction, type FakeServer } from '../../providers/testing/fake-servers.js';
import { openStore } from '../../store/index.js';
import { startWebServer, type RunningServer } from '../serve.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** The key the server holds; no page may ever show it. */
export const SECRET_KEY = 'sk-test-web-0123456789abcdef';

/** Build the front end once per test file, as `npm run build` does, into a temporary folder. */
export async function buildAssets(outDir: string): Promise<void> {
  await build({ configFile: join(ROOT, 'web/vite.config.ts'), build: { outDir, emptyOutDir: true }, logLevel: 'silent' });
}

/**
 * `dir/suites/mini`: four real items whose accepted answer is the one the scripted model gives
 * when it is right; `id` renames them (a test's hostile item ids).
 */
export function writeMiniSuite(dir: string, id?: (index: number, original: string) => string): void {
  mkdirSync(join(dir, 'suites/mini'), { recursive: true });
  const items = readFileSync(join(ROOT, 'data/samples/english/exercises.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 4)
    .map((line, i) => {
      const item = JSON.parse(line) as { id: string };
      return JSON.stringify({ ...item, id: id ? id(i, item.id) : item.id, accepted: ['himself'] });
    });
  writeFileSync(join(dir, 'suites/mini/exercises.jsonl'), `${items.join('\n')}\n`);
}

export interface Harness {
  dir: string;
  store: Store;
  model: FakeServer;
  server: RunningServer;
  browser: Browser;
  /** A fresh page at 1280x800 that fails the test on any console error or CSP report. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Everything the browser tests need, all real and on 127.0.0.1: the built app, a SQLite store,
 * an OpenAI-compatible scripted model server, the web server with that server's key in its
 * environment, a suite folder and a scenario folder, and Debian's Chromium.
 */
export async function startHarness(reply: FakeReplyFunction): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-web-'));
  const assetsDir = join(dir, 'assets-build');
  await buildAssets(assetsDir);
  writeMiniSuite(dir);
  mkdirSync(join(dir, 'scenarios'));
  cpSync(join(ROOT, 'scenarios/knowledge-explanation.yaml'), join(dir, 'scenarios/knowledge-explanation.yaml'));
  cpSync(join(ROOT, 'scenarios/scripts'), join(dir, 'scenarios/scripts'), { recursive: true });
  const store = await openStore(`sqlite:${join(dir, 'paideia.db')}`);
  const model = await startOpenAICompatibleServer(reply);
  const server = await startWebServer({
    store, port: 0, assetsDir,
    env: { OPENAI_API_KEY: SECRET_KEY, OPENAI_BASE_URL: model.baseURL },
    folders: { base: process.cwd(), suites: [join(dir, 'suites')], scenarios: [join(dir, 'scenarios')] },
  });
  const browser = await launchBrowser();
  return {
    dir, store, model, server, browser,
    async page() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC', reducedMotion: 'reduce' });
      const page = await context.newPage();
      page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      page.on('pageerror', e => problems.push(`page error: ${e.message}`));
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
      await model.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Console errors and uncaught page errors seen so far (a CSP violation is logged as a console error). */
export const problems: string[] = [];

/**
 * A scripted reply in the OpenAI format, after a pause so a run can be watched while it goes.
 * Every request after the first waits for `gate` too, so a test that stops a run once a second
 * request has arrived stops it while it surely still has work to do, whatever the machine's load.
 */
export function slowReply(text: (index: number) => string, delayMs: number, gate: Promise<void> = Promise.resolve()): FakeReplyFunction {
  return async (request, index) => {
    if (index > 0) await gate;
    return {
      delayMs,
      body: { ...openAIChatBody({ text: text(index), usage: { prompt_tokens: 40, completion_tokens: 8 } }), echoed_authorization: request.headers.authorization ?? null },
    };
  };
}
