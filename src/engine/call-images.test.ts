import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, jsonText, type ChatRequest } from '../core/index.js';
import { createOpenAICompatibleModel, imagePart, storedImagePart, withoutImageData } from '../providers/index.js';
import { startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { planTrials } from '../suites/plan.js';
import { fourNouns as items, lemmaTest as test } from '../suites/testing/four-nouns.js';
import { createBudget } from './budget.js';
import { createCallPath, requestHash } from './call.js';

let server: FakeServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

// Eight bytes of a PNG signature stand in for a slide: the call path moves bytes, it never decodes them.
const slide = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('images on the call path', () => {
  it('stores the request with the blob reference only, and sends the bytes read back from the store', async () => {
    server = await startOpenAICompatibleServer();
    const store = await openStore('sqlite::memory:');
    const models = [{ alias: 'm', provider: 'openai' as const, model: 'm', spec: 'openai:m' as const }];
    const [trial] = planTrials({ runId: 'r', items, models, tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {} });
    await store.saveTrials([trial!]);
    const ref = await store.putBlob(slide, 'image/png');
    const request: ChatRequest = { messages: [{ role: 'user', content: 'Study this slide.', images: [storedImagePart(ref)] }], params: {} };
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {}, acceptsImages: true });
    const call = createCallPath({
      store, cost: { costOf: () => 0, estimate: () => 0 },
      budget: createBudget({ store, runId: 'r', workerId: 'w', capUsd: undefined, spentUsd: 0 }),
    });
    const hash = requestHash('openai:m', model.endpoint, request);
    const outcome = await call({ trial: trial!, step: 0, alias: 'm', spec: 'openai:m', model, request, hash });
    expect(outcome.type).toBe('ok');
    if (outcome.type === 'ok') await outcome.stored;
    const sent = server.requests[0]!.body as { messages: Array<{ content: unknown }> };
    expect(sent.messages[0]!.content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(slide).toString('base64')}` } },
      { type: 'text', text: 'Study this slide.' },
    ]);
    const [stored] = await store.listCalls('r');
    expect(stored!.request.messages[0]!.images).toEqual([{ blob: ref }]);
    expect(JSON.stringify(stored!.request)).not.toContain(Buffer.from(slide).toString('base64'));
    await store.close();
  });

  it('hashes an image by its blob hash: bytes in hand or not, the key is the same; other bytes, another key', () => {
    const inHand = imagePart(slide, 'image/png');
    const withBytes: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [inHand] }], params: {} };
    const byRef: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [storedImagePart(inHand.blob)] }], params: {} };
    const other: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [imagePart(slide.slice(1), 'image/png')] }], params: {} };
    const textOnly: ChatRequest = { messages: [{ role: 'user', content: 'x' }], params: {} };
    expect(requestHash('openai:m', undefined, withBytes)).toBe(requestHash('openai:m', undefined, byRef));
    expect(requestHash('openai:m', undefined, other)).not.toBe(requestHash('openai:m', undefined, byRef));
    expect(requestHash('openai:m', undefined, textOnly)).not.toBe(requestHash('openai:m', undefined, byRef));
  });

  it('stores an image request in the canonical text written while hashing it, as a text request is', () => {
    const request: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [imagePart(slide, 'image/png')] }], params: { temperature: 0 } };
    requestHash('openai:m', undefined, request);
    // The call record stores withoutImageData(request): the store writes jsonText of it.
    expect(jsonText(withoutImageData(request))).toBe(canonicalJson(withoutImageData(request)));
  });

  it('stores a failed call naming the blob when an image is not in the store, and sends nothing', async () => {
    server = await startOpenAICompatibleServer();
    const store = await openStore('sqlite::memory:');
    const models = [{ alias: 'm', provider: 'openai' as const, model: 'm', spec: 'openai:m' as const }];
    const [trial] = planTrials({ runId: 'r', items, models, tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {} });
    await store.saveTrials([trial!]);
    const missing = imagePart(slide, 'image/png').blob;
    const request: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [storedImagePart(missing)] }], params: {} };
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {}, acceptsImages: true });
    const call = createCallPath({
      store, cost: { costOf: () => 0, estimate: () => 0 },
      budget: createBudget({ store, runId: 'r', workerId: 'w', capUsd: undefined, spentUsd: 0 }),
    });
    const outcome = await call({ trial: trial!, step: 0, alias: 'm', spec: 'openai:m', model, request, hash: requestHash('openai:m', model.endpoint, request) });
    expect(outcome.type).toBe('error');
    if (outcome.type === 'error') {
      await outcome.stored;
      expect(outcome.record.error?.message).toContain(`image blob ${missing.hash} (image/png) is not in the store`);
    }
    expect(server.requests).toHaveLength(0);
    await store.close();
  });
});
