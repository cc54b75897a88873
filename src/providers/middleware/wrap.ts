import type { ChatModel, ChatRequest, ChatResult, GenerateOptions } from '../../core/chat-model.js';

/**
 * Behaviour added around a ChatModel without subclassing it: retries, rate limits, concurrency,
 * caching, recording. Every hook is optional.
 */
export interface ChatModelMiddleware {
  /** Shown in stack traces and debugging output. */
  readonly name?: string;
  /** Rewrite the request before it goes further in. */
  transformRequest?: (args: { request: ChatRequest; options: GenerateOptions; model: ChatModel }) => ChatRequest | Promise<ChatRequest>;
  /**
   * Run around the inner call. `doGenerate` calls the next middleware (or the model) with the
   * request as transformed; it may be called several times (retry) or not at all (cache hit).
   */
  wrapGenerate?: (args: {
    doGenerate: () => Promise<ChatResult>;
    request: ChatRequest;
    options: GenerateOptions;
    model: ChatModel;
  }) => Promise<ChatResult>;
}

/**
 * Wrap a model in middleware. The first middleware is the outermost:
 * `wrapChatModel(m, retry, rateLimit)` retries calls that each pass the rate limiter.
 */
export function wrapChatModel(model: ChatModel, ...middlewares: ChatModelMiddleware[]): ChatModel {
  return middlewares.reduceRight<ChatModel>((inner, middleware) => wrapOne(inner, middleware), model);
}

function wrapOne(inner: ChatModel, middleware: ChatModelMiddleware): ChatModel {
  return {
    specVersion: inner.specVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    isBaseline: inner.isBaseline,
    ...(inner.needsHints ? { needsHints: inner.needsHints } : {}),
    ...(inner.endpoint ? { endpoint: inner.endpoint } : {}),
    ...(inner.acceptsImages ? { acceptsImages: inner.acceptsImages } : {}),
    generate: async function generateWrapped(request: ChatRequest, options: GenerateOptions = {}): Promise<ChatResult> {
      const transformed = middleware.transformRequest
        ? await middleware.transformRequest({ request, options, model: inner })
        : request;
      const doGenerate = () => inner.generate(transformed, options);
      return middleware.wrapGenerate
        ? middleware.wrapGenerate({ doGenerate, request: transformed, options, model: inner })
        : doGenerate();
    },
  };
}
