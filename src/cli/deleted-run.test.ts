import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { grammarSuiteFile } from './testing/grammar-suite.js';
import { runCli, startCli, waitFor } from './testing/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map(s => s.close())); });

/** A server that holds every answer until `open()`: the command's calls are in flight meanwhile. */
async function heldServer() {
  let open!: () => void;
  const gate = new Promise<void>(resolve => (open = resolve));
  const server = await startOpenAICompatibleServer({
    reply: async () => {
      await gate;
      return { status: 200, body: openAIChatBody({ text: 'focail', usage: { prompt_tokens: 10, completion_tokens: 5 } }) };
    },
  });
  servers.push(server);
  return { server, open };
}

/** Delete the run the command is running, forced, while its first calls are held; then let them answer. */
async function deleteMidRun(args: string[], cwd: string, db: string, server: FakeServer, open: () => void) {
  const cli = startCli([...args, '--store', db], { cwd });
  await waitFor(() => server.requests.length >= 2, 'the first calls');
  const listed = JSON.parse((await runCli(['runs', '--format', 'json', '--store', db], { cwd })).stdout) as Array<{ id: string }>;
  expect(listed).toHaveLength(1);
  const runId = listed[0]!.id;
  const deleted = await runCli(['runs', 'delete', runId, '--yes', '--force', '--store', db], { cwd });
  expect(deleted.code, deleted.stderr).toBe(0);
  open();
  return { runId, result: await cli.done };
}

describe('a run deleted with --force while the command runs it', () => {
  it('paideia run says the run is gone and exits 2, with no stack and no resume hint', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-deleted-run-'));
    const suite = grammarSuiteFile(cwd, 'deleted', 20);
    const { server, open } = await heldServer();
    const db = `sqlite:${join(cwd, 's.db')}`;
    const { runId, result } = await deleteMidRun(['run', suite, '-m', 'openai:m', '--repeats', '1', '--base-url', server.baseURL, '--concurrency', '2'], cwd, db, server, open);
    // Before: "another process took run ... over while this one was paused", then a stack from the summary of a missing run, exit 1.
    expect(result.stderr).not.toMatch(/\n\s+at |while this one was paused|resume with/);
    expect(result.stderr).toContain(`error: run ${runId} is no longer in ${db}: it was deleted while this process ran it (paideia runs delete --force?), with everything it had stored; `
      + `start it again with the command that made it. List the runs with: paideia runs --store ${db}`);
    expect(result.code, result.stderr).toBe(2);
  });

  it('paideia scenario run says so too, instead of a resume hint that would start it afresh', async () => {
    const { server, open } = await heldServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-deleted-scenario-'));
    const file = join(cwd, 'loop.yaml');
    writeFileSync(file, `name: deleted
globals: { concurrency: 2, recursion_limit: 3, retry: { attempt: 1, interval: 0 } }
models:
  tutor: { type: openai, model: m, api_base: ${server.baseURL}, api_key: k }
agents:
  teacher: { model: tutor, prompt: [{ role: system, content: "Teach {p}." }], memory: { enable: true, keep_turns: 4 } }
directions: [START -> teacher, teacher -> teacher]
tasks:
  mode: union
  start_prompt: "Help me with {p}"
  content:
    p: [a, b, c, d, e, f]
`);
    const db = `sqlite:${join(cwd, 's.db')}`;
    const { runId, result } = await deleteMidRun(['scenario', 'run', file], cwd, db, server, open);
    expect(result.stderr).not.toMatch(/\n\s+at |resume with/);
    expect(result.stderr).toContain(`run ${runId} is no longer in ${db}: it was deleted while this process ran it`);
    expect(result.code, result.stderr).toBe(2);
    // Nothing of the run came back.
    expect((await runCli(['runs', '--format', 'json', '--store', db], { cwd })).stdout.trim()).toBe('[]');
  });
});
