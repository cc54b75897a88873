import type { BlobRef } from './blob.js';
import type { JsonObject, JsonValue } from './json.js';

/**
 * An image shown to the model in a user message. The request names the bytes by their blob (the
 * hash is what the cache key and the stored request hold); `data` carries the base64 bytes only
 * while the request is sent, filled in from the store by the call path, and is never hashed or stored.
 */
export interface ImagePart {
  /** The bytes' hash, media type (`image/png`, `image/jpeg`, `image/gif`, `image/webp`) and size. */
  blob: BlobRef;
  /** Base64 of the bytes, present only on a request being sent. */
  data?: string;
}

/** One message of a chat. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  /** The message's text (what text-only readers see). */
  content: string;
  /**
   * Images beside the text, user messages only, sent before it in the order given. Only a model
   * declared to accept images (`acceptsImages`) may be sent one; any other refuses the request.
   */
  images?: ImagePart[];
}

/** Sampling parameters every wire protocol understands. Anything else goes in `providerOptions`. */
export interface ChatParams {
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  topP?: number;
  /** Sampling seed, passed to providers that accept one. */
  seed?: number;
  stop?: string[];
  /** Vendor-only settings, passed through as given, namespaced by provider (`openai`, `anthropic`). */
  providerOptions?: Record<string, JsonObject>;
}

/** A function the model may call; used for structured judge output (`format_mode: tool`). */
export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters: JsonObject;
}

/**
 * What a baseline needs to answer without a model: the test's prompt template fills these in,
 * so the baselines never switch on test kinds.
 */
export interface BaselineHints {
  /** The "no change" answer: the learner's sentence or the source text as given. */
  copy?: string;
  /** The first accepted answer, rendered in the shape the test expects. */
  gold?: string;
  /** Options of a closed exercise, for `baseline:random`. */
  options?: string[];
}

/** A request to a chat model. */
export interface ChatRequest {
  messages: ChatMessage[];
  params: ChatParams;
  tools?: ToolSpec[];
  /** Force a call to this tool. */
  toolChoice?: string;
  /** Never sent over the wire; read only by baselines. */
  hints?: BaselineHints;
  /** Trial context for providers that answer from a store or a script (replay, script). */
  context?: { trialId?: string; itemId?: string; repeat?: number; turn?: number; role?: string };
}

/** Token counts as the provider reported them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A setting the provider could not honour: kept with the result, neither dropped nor thrown. */
export interface CallWarning {
  type: 'unsupported-setting' | 'other';
  setting?: string;
  message: string;
}

/** A tool call returned by the model. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  name: string;
  arguments: string;
}

/** What a chat model returned. */
export interface ChatResult {
  text: string;
  toolCalls?: ToolCall[];
  usage?: TokenUsage;
  finishReason?: string;
  /** The model version the server says answered (it may differ from the one asked for). */
  responseModel?: string;
  warnings: CallWarning[];
  /** The raw response body, stored for audit. */
  raw?: JsonValue;
}

/**
 * A chat model behind one wire protocol. Implementations are factories with injected I/O
 * (`fetch`), so tests can point them at a local server.
 */
export interface ChatModel {
  readonly specVersion: 'paideia.chat-model.v1';
  /** Protocol name: `openai`, `anthropic`, `baseline`, `replay`, ... */
  readonly provider: string;
  /** The model name within the provider. */
  readonly modelId: string;
  /** True for built-in reference systems; reports label them. */
  readonly isBaseline: boolean;
  /**
   * Where the model is served from (base URL without credentials or query), for HTTP providers.
   * The same model name at two endpoints is two models: the endpoint is part of a run's identity
   * and of the cache key, and a resumed run goes back to it.
   */
  readonly endpoint?: string;
  /**
   * Hints without which this model cannot answer (a baseline that only reads hints). Trials whose
   * first request lacks one are not planned for it: `baseline:random` has nothing to pick from in
   * an open question, and that is "not applicable", not a failure.
   */
  readonly needsHints?: ReadonlyArray<keyof BaselineHints>;
  /**
   * True when the model's binding declares that it accepts images (`images: true`); never guessed
   * from its name. Absent means false: a request with images fails with a ConfigError naming the model.
   */
  readonly acceptsImages?: boolean;
  /** Answer one request. Throws ProviderCallError on failure. */
  generate(request: ChatRequest, options?: GenerateOptions): Promise<ChatResult>;
}

/** Per-call options that are not part of the request. */
export interface GenerateOptions {
  signal?: AbortSignal;
  /**
   * Once aborted, a failed attempt is not tried again and a backoff under way ends with the last
   * failure (a drain: the calls in flight finish, none is asked again).
   */
  retryUntil?: AbortSignal;
  /** Told of every failed attempt that will be retried (retry middleware calls it). */
  onRetry?: (info: { attempt: number; error: unknown; delayMs: number }) => void;
}
