import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../../cli/testing/run-cli.js';

const providers = fileURLToPath(new URL('../index.ts', import.meta.url));

/** Whether undici is loaded after each step, in a process of its own (a clean module cache). */
function undiciLoadedAfter(steps: string): boolean[] {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const loaded = () => Object.keys(require.cache).some(f => /node_modules[\\\\/]undici[\\\\/]/.test(f));
    const seen = [];
    const p = await import(${JSON.stringify(providers)});
    seen.push(loaded());
    ${steps}
    process.stdout.write(JSON.stringify(seen));`;
  const r = spawnSync(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as boolean[];
}

describe('loadTransport', () => {
  it('loads undici when a model that calls over HTTP is made, not with the first request, and not for a model with its own fetch', () => {
    // Loaded by the first request, it held up every other request of a run's first wave (~75 ms).
    expect(undiciLoadedAfter(`
      p.createOpenAICompatibleModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch: async () => new Response('{}') });
      seen.push(loaded());
      p.createOpenAICompatibleModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' });
      seen.push(loaded());`)).toEqual([false, false, true]);
    expect(undiciLoadedAfter(`
      p.createAnthropicModel({ model: 'm', baseURL: 'http://127.0.0.1:9', apiKey: 'k' });
      seen.push(loaded());`)).toEqual([false, true]);
  });
});
