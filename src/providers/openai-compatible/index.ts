import { ConfigError } from '../../core/errors.js';
import { publicEndpoint } from '../shared/endpoint.js';
import { z } from 'zod';
import type { CallWarning, ChatModel, ChatRequest, ChatResult, GenerateOptions, ToolCall } from '../../core/chat-model.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { asObject, numberOr0 } from '../shared/json-read.js';
import type { HttpProviderSettings } from '../shared/http-settings.js';
import { DEFAULT_MAX_RESPONSE_BYTES, emptyResponse, postJson } from '../shared/post-json.js';
import { loadTransport } from '../shared/http-client.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { checkImages, imageData } from '../shared/images.js';
import type { ChatMessage } from '../../core/chat-model.js';

/** `baseURL` defaults to `OPENAI_BASE_URL`, then `https://api.openai.com/v1` (`/chat/completions` is
 * appended); `apiKey` to the variable named by `apiKeyEnv` (with no key, no Authorization header is
 * sent: local servers). */
export interface OpenAICompatibleSettings extends HttpProviderSettings {
  /** Environment variable holding the key; named in 401 messages. Default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** Name this model reports and the `providerOptions` namespace it reads. Default `openai`. */
  provider?: string;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Keys we know the type of; anything else passes through unchecked. */
const openAIOptionsSchema = z.looseObject({
  max_completion_tokens: z.number().int().positive().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
  reasoning_effort: z.string().optional(),
  response_format: z.looseObject({ type: z.string() }).optional(),
  logprobs: z.boolean().optional(),
  user: z.string().optional(),
});

/**
 * A model behind the OpenAI chat completions protocol: OpenAI, OpenRouter, vLLM, llama.cpp
 * server, LM Studio, Ollama's `/v1`.
 */
export function createOpenAICompatibleModel(settings: OpenAICompatibleSettings): ChatModel {
  const env = settings.env ?? process.env;
  const apiKeyEnv = settings.apiKeyEnv ?? 'OPENAI_API_KEY';
  // An empty variable counts as unset (shells and CI often export them empty).
  const baseURL = (settings.baseURL || env.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  // Checked before anything else: a base URL that cannot be called is bad input, not 174 retries.
  const endpoint = publicEndpoint(baseURL, settings.baseURL ? 'baseURL' : 'OPENAI_BASE_URL');
  const apiKey = settings.apiKey || env[apiKeyEnv] || undefined;
  const provider = settings.provider ?? 'openai';
  // OpenAI itself always needs a key: say so before the first call rather than fail every trial.
  if (!apiKey && baseURL === DEFAULT_OPENAI_BASE_URL) {
    throw new ConfigError([{ field: apiKeyEnv, message: `no API key for ${baseURL}: set ${apiKeyEnv} (or the \`apiKey\` option), or point --base-url / OPENAI_BASE_URL at your own server` }]);
  }
  const fetchFn = settings.fetch;
  // Its transport is loaded now, not inside its first call (see loadTransport).
  if (!fetchFn) loadTransport();
  const timeoutMs = settings.timeoutMs ?? 120_000;
  const timeoutHint = settings.timeoutHint?.(timeoutMs);
  const maxResponseBytes = settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const url = `${baseURL}/chat/completions`;
  const label = `OpenAI-compatible API at ${baseURL}`;
  const keyHint = apiKey
    ? `The key was rejected; check the \`apiKey\` option or the ${apiKeyEnv} environment variable.`
    : `No API key was sent; set the \`apiKey\` option or the ${apiKeyEnv} environment variable.`;
  const headers: Record<string, string> = { ...settings.headers };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  // Built once: a call only reads it.
  const imageSupport = { label: `${provider}:${settings.model}`, acceptsImages: settings.acceptsImages };
  return {
    specVersion: 'paideia.chat-model.v1',
    provider,
    modelId: settings.model,
    isBaseline: false,
    endpoint,
    acceptsImages: settings.acceptsImages === true,
    generate: async function generateOpenAICompatible(request: ChatRequest, options?: GenerateOptions): Promise<ChatResult> {
      checkImages(imageSupport, request);
      const { body, warnings } = toOpenAIBody(settings.model, request, provider);
      const response = await postJson({ fetch: fetchFn, url, headers, body, timeoutMs, timeoutHint, signal: options?.signal, label, keyHint, maxResponseBytes });
      const result = fromOpenAIBody(response.body, label) as ChatResult;
      result.warnings = response.warnings.length > 0 ? [...warnings, ...response.warnings] : warnings;
      return result;
    },
  };
}

/** The request body, exported for tests and for request hashing elsewhere. */
export function toOpenAIBody(model: string, request: ChatRequest, namespace = 'openai'): { body: JsonObject; warnings: CallWarning[] } {
  const { params } = request;
  const passthrough = readProviderOptions(openAIOptionsSchema, params, namespace);
  const warnings: CallWarning[] = [];
  const body: JsonObject = {
    model,
    messages: request.messages.map(toOpenAIMessage),
  };
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.maxTokens !== undefined) {
    // OpenAI rejects a request carrying both limits; the vendor-specific one is the deliberate choice.
    if (passthrough.max_completion_tokens !== undefined) {
      warnings.push({
        type: 'other',
        setting: 'maxTokens',
        message: `maxTokens (${params.maxTokens}) not sent: providerOptions.${namespace}.max_completion_tokens replaces it.`,
      });
    } else body.max_tokens = params.maxTokens;
  }
  if (params.topP !== undefined) body.top_p = params.topP;
  if (params.seed !== undefined) body.seed = params.seed;
  if (params.stop !== undefined && params.stop.length > 0) body.stop = params.stop;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(tool => {
      const fn: JsonObject = { name: tool.name, parameters: tool.parameters };
      if (tool.description !== undefined) fn.description = tool.description;
      return { type: 'function', function: fn };
    });
  }
  if (request.toolChoice !== undefined) body.tool_choice = { type: 'function', function: { name: request.toolChoice } };
  // The caller's vendor options win; most calls have none, and need no copy.
  return { body: Object.keys(passthrough).length > 0 ? { ...body, ...passthrough } : body, warnings };
}

/** A message with images becomes content parts: each image as an `image_url` data URL, then the text. */
function toOpenAIMessage(m: ChatMessage): JsonObject {
  if (!m.images?.length) return { role: m.role, content: m.content };
  const parts: JsonObject[] = m.images.map(image => ({
    type: 'image_url', image_url: { url: `data:${image.blob.mediaType};base64,${imageData(image)}` },
  }));
  if (m.content !== '') parts.push({ type: 'text', text: m.content });
  return { role: m.role, content: parts };
}

/**
 * Reads the first choice. Throws kind `empty` (retryable) when there is none, and when the choice
 * has no text (content null, absent, `""` or a list of parts with no text) and no tool calls: that
 * is a failed call, as the same reply from Anthropic is, never an empty answer to be scored.
 */
export function fromOpenAIBody(body: JsonObject, label: string): Omit<ChatResult, 'warnings'> {
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw emptyResponse(label, 'the `choices` list is empty or missing', body);
  const choice = asObject(choices[0]);
  const message = asObject(choice.message);
  // Made only for an answer that has tool calls (most have none).
  let toolCalls: ToolCall[] | undefined;
  if (Array.isArray(message.tool_calls)) {
    toolCalls = [];
    for (const call of message.tool_calls) {
      const fn = asObject(asObject(call).function);
      if (typeof fn.name !== 'string') continue;
      toolCalls.push({ name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}) });
    }
  }
  const text = readContent(message.content);
  if (text === '' && !toolCalls?.length) {
    const finish = typeof choice.finish_reason === 'string' ? ` (finish_reason "${choice.finish_reason}")` : '';
    throw emptyResponse(label, `the first choice has no text and no tool calls${finish}`, body);
  }
  const usage = asObject(body.usage);
  const result: Omit<ChatResult, 'warnings'> = { text, raw: body };
  if (toolCalls && toolCalls.length > 0) result.toolCalls = toolCalls;
  if (typeof usage.prompt_tokens === 'number' || typeof usage.completion_tokens === 'number') {
    result.usage = { inputTokens: numberOr0(usage.prompt_tokens), outputTokens: numberOr0(usage.completion_tokens) };
  }
  if (typeof choice.finish_reason === 'string') result.finishReason = choice.finish_reason;
  if (typeof body.model === 'string') result.responseModel = body.model;
  return result;
}

/** `content` is a string, null (tool calls only) or, on some servers, a list of text parts. */
function readContent(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map(part => {
      const p = asObject(part);
      return typeof p.text === 'string' ? p.text : '';
    }).join('');
  }
  return '';
}
