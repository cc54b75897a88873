import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { ConfigError } from '../../core/errors.js';
import { parseModelSpec } from '../../core/model-spec.js';
import { createChatModel } from '../create-chat-model.js';
import { retryMiddleware, wrapChatModel } from '../middleware/index.js';
import { estimateRequestTokens, IMAGE_TOKENS_ESTIMATE } from './estimate-tokens.js';
import { acceptsImages, checkImages, imageData, imagePart, resolveImages, storedImagePart, withoutImageData } from './images.js';

const bytes = new Uint8Array([9, 8, 7]);

describe('image parts', () => {
  it('names bytes by the SHA-256 the store uses, and strips the bytes for hashing and storing', () => {
    const part = imagePart(bytes, 'image/png');
    expect(part).toEqual({ blob: { hash: createHash('sha256').update(bytes).digest('hex'), mediaType: 'image/png', size: 3 }, data: 'CQgH' });
    const request: ChatRequest = { messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b', images: [part] }], params: {} };
    const stripped = withoutImageData(request);
    expect(stripped.messages[1]!.images).toEqual([{ blob: part.blob }]);
    expect(stripped.messages[0]).toBe(request.messages[0]);
    expect(request.messages[1]!.images![0]!.data).toBe('CQgH');
  });

  it('reads unresolved images from the store and says which blob is missing', async () => {
    const part = imagePart(bytes, 'image/png');
    const request: ChatRequest = { messages: [{ role: 'user', content: 'b', images: [storedImagePart(part.blob)] }], params: {} };
    const resolved = await resolveImages(request, async hash => (hash === part.blob.hash ? { bytes } : undefined));
    expect(resolved.messages[0]!.images).toEqual([part]);
    await expect(resolveImages(request, async () => undefined)).rejects.toThrow(`image blob ${part.blob.hash} (image/png) is not in the store`);
    expect(() => imageData(storedImagePart(part.blob))).toThrow(/sent without its bytes/);
  });

  it('refuses images to an undeclared model, outside user messages, and of other types', () => {
    const part = imagePart(bytes, 'image/png');
    const user: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [part] }], params: {} };
    expect(() => checkImages({ label: 'openai:m' }, user)).toThrow(ConfigError);
    expect(() => checkImages({ label: 'openai:m' }, user)).toThrow(/model openai:m is not declared to accept images/);
    expect(() => checkImages({ label: 'openai:m', acceptsImages: true }, user)).not.toThrow();
    expect(() => checkImages({ label: 'openai:m' }, { messages: [{ role: 'user', content: 'x', images: [] }], params: {} })).not.toThrow();
    const system: ChatRequest = { messages: [{ role: 'system', content: 'x', images: [part] }], params: {} };
    expect(() => checkImages({ label: 'm', acceptsImages: true }, system)).toThrow(/only be sent in user messages, not system/);
    const svg: ChatRequest = { messages: [{ role: 'user', content: 'x', images: [imagePart(bytes, 'image/svg+xml')] }], params: {} };
    expect(() => checkImages({ label: 'm', acceptsImages: true }, svg)).toThrow(/image type "image\/svg\+xml" is not sent/);
  });

  it('takes image support from the binding only, and keeps it through middleware', () => {
    const plain = createChatModel(parseModelSpec('openai:gpt-4o'), { env: {}, baseURL: 'http://127.0.0.1:9/v1' });
    expect(acceptsImages(plain)).toBe(false);
    const declared = createChatModel({ ...parseModelSpec('openai:small-text-model'), images: true }, { env: {}, baseURL: 'http://127.0.0.1:9/v1' });
    expect(acceptsImages(declared)).toBe(true);
    expect(acceptsImages(wrapChatModel(declared, retryMiddleware()))).toBe(true);
    expect(acceptsImages(createChatModel({ ...parseModelSpec('anthropic:c'), images: true }, { env: {}, endpoint: 'http://127.0.0.1:9' }))).toBe(true);
    expect(acceptsImages(createChatModel(parseModelSpec('baseline:gold')))).toBe(false);
  });

  it('charges each image a fixed token estimate for caps and rate limits', () => {
    const part = imagePart(bytes, 'image/png');
    const request: ChatRequest = { messages: [{ role: 'user', content: 'abcd', images: [part, part] }], params: { maxTokens: 5 } };
    expect(estimateRequestTokens(request)).toEqual({ inputTokens: 1 + 2 * IMAGE_TOKENS_ESTIMATE, outputTokens: 5 });
  });
});
