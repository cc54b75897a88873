import { ConfigError } from '../../core/errors.js';
import { publicEndpoint } from '../shared/endpoint.js';
import { z } from 'zod';
import type { CallWarning, ChatModel, ChatRequest, ChatResult, GenerateOptions, ToolCall } from '../../core/chat-model.js';
import type { JsonObject } from '../../core/json.js';
import { asObject, numberOr0 } from '../shared/json-read.js';
import type { HttpProviderSettings } from '../shared/http-settings.js';
import { DEFAULT_MAX_RESPONSE_BYTES, emptyResponse, postJson } from '../shared/post-json.js';
import { loadTransport } from '../shared/http-client.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { checkImages, imageData } from '../shared/images.js';
import type { ChatMessage } from '../../core/chat-model.js';

/** `model` e.g. `claude-sonnet-4-20250514`; `baseURL` defaults to `ANTHROPIC_BASE_URL`, then
 * `https://api.anthropic.com` (`/v1/messages` is appended); `apiKey` to `ANTHROPIC_API_KEY`. */
export interface AnthropicSettings extends HttpProviderSettings {
  /** `max_tokens` when the request sets none (the API requires one). Default 1024. */
  defaultMaxTokens?: number;
}

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

const anthropicOptionsSchema = z.looseObject({
  max_tokens: z.number().int().positive().optional(),
  top_k: z.number().int().positive().optional(),
  thinking: z.looseObject({ type: z.string() }).optional(),
  metadata: z.looseObject({}).optional(),
});

/** A model behind Anthropic's Messages API. */
export function createAnthropicModel(settings: AnthropicSettings): ChatModel {
  const env = settings.env ?? process.env;
  // An empty variable counts as unset (shells and CI often export them empty).
  const baseURL = (settings.baseURL || env.ANTHROPIC_BASE_URL || DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  const endpoint = publicEndpoint(baseURL, settings.baseURL ? 'baseURL' : 'ANTHROPIC_BASE_URL');
  const apiKey = settings.apiKey || env.ANTHROPIC_API_KEY || undefined;
  // Anthropic's own API always needs a key: say so before the first call rather than fail every trial.
  if (!apiKey && baseURL === DEFAULT_ANTHROPIC_BASE_URL) {
    throw new ConfigError([{ field: 'ANTHROPIC_API_KEY', message: `no API key for ${baseURL}: set ANTHROPIC_API_KEY (or the \`apiKey\` option), or point ANTHROPIC_BASE_URL at your own server` }]);
  }
  const fetchFn = settings.fetch;
  // Its transport is loaded now, not inside its first call (see loadTransport).
  if (!fetchFn) loadTransport();
  const timeoutMs = settings.timeoutMs ?? 120_000;
  const timeoutHint = settings.timeoutHint?.(timeoutMs);
  const maxResponseBytes = settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const defaultMaxTokens = settings.defaultMaxTokens ?? 1024;
  const url = `${baseURL}/v1/messages`;
  const label = `Anthropic API at ${baseURL}`;
  const keyHint = apiKey
    ? 'The key was rejected; check the `apiKey` option or the ANTHROPIC_API_KEY environment variable.'
    : 'No API key was sent; set the `apiKey` option or the ANTHROPIC_API_KEY environment variable.';
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...settings.headers };
  if (apiKey) headers['x-api-key'] = apiKey;

  // Built once: a call only reads it.
  const imageSupport = { label: `anthropic:${settings.model}`, acceptsImages: settings.acceptsImages };
  return {
    specVersion: 'paideia.chat-model.v1',
    provider: 'anthropic',
    modelId: settings.model,
    isBaseline: false,
    endpoint,
    acceptsImages: settings.acceptsImages === true,
    generate: async function generateAnthropic(request: ChatRequest, options?: GenerateOptions): Promise<ChatResult> {
      checkImages(imageSupport, request);
      const { body, warnings } = toAnthropicBody(settings.model, request, defaultMaxTokens);
      const response = await postJson({ fetch: fetchFn, url, headers, body, timeoutMs, timeoutHint, signal: options?.signal, label, keyHint, maxResponseBytes });
      const result = fromAnthropicBody(response.body, label) as ChatResult;
      result.warnings = response.warnings.length > 0 ? [...warnings, ...response.warnings] : warnings;
      return result;
    },
  };
}

export function toAnthropicBody(model: string, request: ChatRequest, defaultMaxTokens = 1024): { body: JsonObject; warnings: CallWarning[] } {
  const { params } = request;
  const passthrough = readProviderOptions(anthropicOptionsSchema, params, 'anthropic');
  const warnings: CallWarning[] = [];
  const system = request.messages.filter(m => m.role === 'system').map(m => m.content);
  const body: JsonObject = {
    model,
    max_tokens: params.maxTokens ?? defaultMaxTokens,
    messages: request.messages.filter(m => m.role !== 'system').map(toAnthropicMessage),
  };
  if (params.maxTokens === undefined && passthrough.max_tokens === undefined) {
    warnings.push({ type: 'other', setting: 'maxTokens', message: `maxTokens not set; Anthropic requires it, so ${defaultMaxTokens} was sent.` });
  }
  // The Messages API has one top-level system prompt; several system messages are joined in order.
  if (system.length > 0) body.system = system.join('\n\n');
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.topP !== undefined) body.top_p = params.topP;
  if (params.stop !== undefined && params.stop.length > 0) body.stop_sequences = params.stop;
  if (params.seed !== undefined) {
    warnings.push({ type: 'unsupported-setting', setting: 'seed', message: 'The Anthropic Messages API has no seed; the call was made without one.' });
  }
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(tool => {
      const out: JsonObject = { name: tool.name, input_schema: tool.parameters };
      if (tool.description !== undefined) out.description = tool.description;
      return out;
    });
  }
  if (request.toolChoice !== undefined) body.tool_choice = { type: 'tool', name: request.toolChoice };
  // The caller's vendor options win; most calls have none, and need no copy.
  return { body: Object.keys(passthrough).length > 0 ? { ...body, ...passthrough } : body, warnings };
}

/** A message with images becomes content blocks: each image as a base64 source, then the text (never an empty text block, which the API rejects). */
function toAnthropicMessage(m: ChatMessage): JsonObject {
  if (!m.images?.length) return { role: m.role, content: m.content };
  const blocks: JsonObject[] = m.images.map(image => ({
    type: 'image', source: { type: 'base64', media_type: image.blob.mediaType, data: imageData(image) },
  }));
  if (m.content !== '') blocks.push({ type: 'text', text: m.content });
  return { role: m.role, content: blocks };
}

/** Reads the content blocks. Throws kind `empty` when there are none. */
export function fromAnthropicBody(body: JsonObject, label: string): Omit<ChatResult, 'warnings'> {
  const content = body.content;
  if (!Array.isArray(content) || content.length === 0) throw emptyResponse(label, 'the `content` list is empty or missing', body);
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const item of content) {
    const block = asObject(item);
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block.type === 'tool_use' && typeof block.name === 'string') {
      toolCalls.push({ name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    }
  }
  const usage = asObject(body.usage);
  const result: Omit<ChatResult, 'warnings'> = { text, raw: body };
  if (toolCalls.length > 0) result.toolCalls = toolCalls;
  if (typeof usage.input_tokens === 'number' || typeof usage.output_tokens === 'number') {
    result.usage = { inputTokens: numberOr0(usage.input_tokens), outputTokens: numberOr0(usage.output_tokens) };
  }
  if (typeof body.stop_reason === 'string') result.finishReason = body.stop_reason;
  if (typeof body.model === 'string') result.responseModel = body.model;
  return result;
}
