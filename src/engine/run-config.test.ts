import { describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { loadRunConfig, saveRunConfig } from './run-config.js';

describe('the config a run keeps', () => {
  it('keeps base URLs without the user, password, query or fragment a key may travel in', async () => {
    const store = await openStore('sqlite::memory:');
    await saveRunConfig(store, 'run-1', {
      kind: 'suite', baseUrl: 'http://qa:s3cret@127.0.0.1:8080/v1/?api_key=sk-123', judgeBaseUrl: 'https://judges.example/v1#k=sk-456',
      endpoints: { a: 'http://127.0.0.1:9000/v1?key=sk-789', b: 'http://127.0.0.1:9001/v1/' }, concurrency: 4,
    });
    const kept = await loadRunConfig(store, 'run-1');
    expect(kept).toEqual({
      kind: 'suite', baseUrl: 'http://127.0.0.1:8080/v1', judgeBaseUrl: 'https://judges.example/v1',
      // A URL with nothing secret in it is kept exactly as given.
      endpoints: { a: 'http://127.0.0.1:9000/v1', b: 'http://127.0.0.1:9001/v1/' }, concurrency: 4,
    });
    expect(JSON.stringify(kept)).not.toMatch(/s3cret|sk-/);
    await store.close();
  });
});
