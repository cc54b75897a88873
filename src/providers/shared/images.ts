import { createHash } from 'node:crypto';
import type { BlobRef } from '../../core/blob.js';
import type { ChatModel, ChatRequest, ImagePart } from '../../core/chat-model.js';
import { ConfigError, PaideiaError } from '../../core/errors.js';

/** Media types both wire protocols accept for images. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** True only when the model's binding declared image support. */
export function acceptsImages(model: Pick<ChatModel, 'acceptsImages'>): boolean {
  return model.acceptsImages === true;
}

/** An image part from bytes in hand (hash computed as the store computes it), ready to send. */
export function imagePart(bytes: Uint8Array, mediaType: string): ImagePart {
  const blob: BlobRef = { hash: createHash('sha256').update(bytes).digest('hex'), mediaType, size: bytes.byteLength };
  return { blob, data: Buffer.from(bytes).toString('base64') };
}

/** An image part naming a stored blob; the call path fills in its bytes when it sends the request. */
export function storedImagePart(blob: BlobRef): ImagePart {
  return { blob: { hash: blob.hash, mediaType: blob.mediaType, size: blob.size } };
}

/** Whether any message of the request carries an image. */
export const hasImages = (request: ChatRequest): boolean => request.messages.some(m => m.images && m.images.length > 0);

// One stripped copy per request: the call path hashes it and stores it, and the canonical text
// written while hashing (core's keepJson) is kept on that copy.
const stripped = new WeakMap<ChatRequest, ChatRequest>();

/** The request as hashed and stored: image parts keep their blob reference and lose their bytes (the same object each time for one request). */
export function withoutImageData(request: ChatRequest): ChatRequest {
  if (!hasImages(request)) return request;
  let copy = stripped.get(request);
  if (!copy) {
    copy = { ...request, messages: request.messages.map(m => (m.images ? { ...m, images: m.images.map(i => ({ blob: i.blob })) } : m)) };
    stripped.set(request, copy);
  }
  return copy;
}

export type BlobReader = (hash: string) => Promise<{ bytes: Uint8Array } | undefined>;

/** The request with every image's bytes read from the store; a missing blob is an error naming it. */
export async function resolveImages(request: ChatRequest, read: BlobReader): Promise<ChatRequest> {
  if (!hasImages(request)) return request;
  const messages = await Promise.all(request.messages.map(async m => {
    if (!m.images) return m;
    const images = await Promise.all(m.images.map(async (image): Promise<ImagePart> => {
      if (image.data !== undefined) return image;
      const found = await read(image.blob.hash);
      if (!found) throw new PaideiaError(`image blob ${image.blob.hash} (${image.blob.mediaType}) is not in the store; store it with putBlob before the request names it`);
      return { blob: image.blob, data: Buffer.from(found.bytes).toString('base64') };
    }));
    return { ...m, images };
  }));
  return { ...request, messages };
}

/**
 * Refuses, before anything is sent, a request with images to a model not declared to accept
 * them, and images outside user messages or of a type neither protocol takes.
 */
export function checkImages(model: { label: string; acceptsImages?: boolean }, request: ChatRequest): void {
  if (!hasImages(request)) return;
  if (model.acceptsImages !== true) {
    throw new ConfigError([{ field: 'images', message: `model ${model.label} is not declared to accept images: declare it with \`images: true\` in its binding (only if it does accept them), or send the slides as text` }]);
  }
  for (const [i, m] of request.messages.entries()) {
    if (!m.images?.length) continue;
    if (m.role !== 'user') throw new ConfigError([{ field: `messages.${i}.images`, message: `images may only be sent in user messages, not ${m.role} messages` }]);
    for (const image of m.images) {
      if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(image.blob.mediaType)) {
        throw new ConfigError([{ field: `messages.${i}.images`, message: `image type "${image.blob.mediaType}" is not sent to models; use one of ${IMAGE_MEDIA_TYPES.join(', ')}` }]);
      }
    }
  }
}

/** The base64 bytes of an image being sent; an unresolved one is a bug in whoever called the model. */
export function imageData(image: ImagePart): string {
  if (image.data === undefined) throw new PaideiaError(`image blob ${image.blob.hash} was sent without its bytes; calls must go through the engine's call path, which reads them from the store`);
  return image.data;
}
