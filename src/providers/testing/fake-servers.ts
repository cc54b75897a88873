import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Real HTTP servers on 127.0.0.1 that speak just enough of the OpenAI chat completions and
 * Anthropic Messages protocols for tests. Each request is recorded, then answered by the next
 * scripted reply in the queue, or by the default reply function once the queue is empty.
 */

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names, as node gives them. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when it was empty or not JSON. */
  body: unknown;
  rawBody: string;
}

/** How to answer one request. */
export type FakeReply =
  /**
   * A normal response. An object `body` is sent as JSON; a string or a Buffer is sent as is (for
   * malformed bodies and bytes that are not UTF-8). `stallBody` sends the headers and half the body, then never finishes.
   */
  | { status?: number; headers?: Record<string, string>; body?: unknown; delayMs?: number; stallBody?: boolean }
  /** Never answer; the connection stays open until the client gives up or the server closes. */
  | { hang: true }
  /** Destroy the socket without a response (the client sees ECONNRESET / "other side closed"). */
  | { drop: true; delayMs?: number };

export type FakeReplyFunction = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeServerOptions {
  /** Replies used in order, one per request, before the default takes over. */
  replies?: Array<FakeReply | FakeReplyFunction>;
  /** Answers every request after the queue is empty. Each protocol's server has a sensible one. */
  reply?: FakeReplyFunction;
  /** Listen on this port (a server back at the address it went away from); default any free one. */
  port?: number;
}

export interface FakeServer {
  /** What to pass as `baseURL` to the matching provider factory. */
  baseURL: string;
  /** `http://127.0.0.1:<port>` with no path. */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Add replies to the end of the queue. */
  enqueue(...replies: Array<FakeReply | FakeReplyFunction>): void;
  close(): Promise<void>;
}

/** Start a server with no protocol-specific default: unscripted requests get a 500. */
export async function startFakeServer(options: FakeServerOptions = {}, basePath = ''): Promise<FakeServer> {
  const queue = [...(options.replies ?? [])];
  const fallback: FakeReplyFunction =
    options.reply ?? (() => ({ status: 500, body: { error: { message: 'fake server: no reply scripted' } } }));
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>(resolve => {
      const timer = setTimeout(() => { timers.delete(timer); resolve(); }, ms);
      timers.add(timer);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try { body = rawBody ? JSON.parse(rawBody) : undefined; } catch { body = undefined; }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, rawBody };
      const index = requests.push(recorded) - 1;
      const next = queue.shift() ?? fallback;
      void (async () => {
        const reply = typeof next === 'function' ? await next(recorded, index) : next;
        if ('hang' in reply) return;
        if (reply.delayMs) await wait(reply.delayMs);
        if ('drop' in reply) { req.socket.destroy(); return; }
        send(res, reply);
      })().catch(error => {
        if (!res.headersSent) send(res, { status: 500, body: { error: { message: `fake server: ${String(error)}` } } });
      });
    });
  });
  await new Promise<void>(resolve => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseURL: origin + basePath,
    origin,
    requests,
    enqueue: (...replies) => { queue.push(...replies); },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, reply: { status?: number; headers?: Record<string, string>; body?: unknown; stallBody?: boolean }): void {
  if (res.destroyed || res.writableEnded) return;
  const text = reply.body === undefined ? '' : typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  if (reply.stallBody) res.write(text.slice(0, Math.floor(text.length / 2)));
  else res.end(text);
}

/** The text of the last user message of a recorded chat request, for echo replies. */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body as { messages?: Array<{ role?: string; content?: unknown }> } | undefined)?.messages ?? [];
  const last = [...messages].reverse().find(m => m.role === 'user');
  if (typeof last?.content === 'string') return last.content;
  // A message with images is a list of parts (OpenAI `text`, Anthropic `text` blocks).
  if (Array.isArray(last?.content)) return last.content.map(p => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

// ---------------------------------------------------------------- OpenAI chat completions

export interface OpenAIReplyFields {
  text?: string | null;
  toolCalls?: Array<{ name: string; arguments: string }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
  model?: string;
  finishReason?: string;
}

/** A chat completion body with one choice. */
export function openAIChatBody(fields: OpenAIReplyFields = {}): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: fields.text === undefined ? 'ok' : fields.text };
  if (fields.toolCalls) {
    message.tool_calls = fields.toolCalls.map((call, i) => ({
      id: `call_${i}`, type: 'function', function: { name: call.name, arguments: call.arguments },
    }));
  }
  const usage = fields.usage ?? { prompt_tokens: 10, completion_tokens: 2 };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: fields.model ?? 'fake-model',
    choices: [{ index: 0, message, finish_reason: fields.finishReason ?? (fields.toolCalls ? 'tool_calls' : 'stop') }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** Default OpenAI reply: echoes the last user message, usage = characters / 4 rounded up. */
export const openAIEchoReply: FakeReplyFunction = request => {
  if (request.method !== 'POST' || !request.path.endsWith('/chat/completions')) {
    return { status: 404, body: { error: { message: `fake server: no route ${request.method} ${request.path}`, type: 'invalid_request_error' } } };
  }
  const text = `echo: ${lastUserText(request)}`;
  const model = (request.body as { model?: string } | undefined)?.model;
  return {
    body: openAIChatBody({
      text,
      model: model ?? 'fake-model',
      usage: { prompt_tokens: Math.ceil(request.rawBody.length / 4), completion_tokens: Math.ceil(text.length / 4) },
    }),
  };
};

/** An OpenAI-compatible server; `baseURL` ends in `/v1`. A function argument is the default reply. */
export function startOpenAICompatibleServer(options: FakeServerOptions | FakeReplyFunction = {}): Promise<FakeServer> {
  const opts = typeof options === 'function' ? { reply: options } : options;
  return startFakeServer({ ...opts, reply: opts.reply ?? openAIEchoReply }, '/v1');
}

/** The error body shape OpenAI uses. */
export function openAIErrorBody(message: string, type = 'invalid_request_error', code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}

// ---------------------------------------------------------------- Anthropic Messages

export interface AnthropicReplyFields {
  text?: string;
  toolUses?: Array<{ name: string; input: unknown }>;
  usage?: { input_tokens: number; output_tokens: number };
  model?: string;
  stopReason?: string;
}

/** A Messages API response body. */
export function anthropicMessageBody(fields: AnthropicReplyFields = {}): Record<string, unknown> {
  const content: unknown[] = [];
  if (fields.text !== undefined || !fields.toolUses) content.push({ type: 'text', text: fields.text ?? 'ok' });
  for (const [i, use] of (fields.toolUses ?? []).entries()) {
    content.push({ type: 'tool_use', id: `toolu_${i}`, name: use.name, input: use.input });
  }
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: fields.model ?? 'fake-claude',
    content,
    stop_reason: fields.stopReason ?? (fields.toolUses ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: fields.usage ?? { input_tokens: 10, output_tokens: 2 },
  };
}

/** The error body shape Anthropic uses. */
export function anthropicErrorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: 'req_fake' };
}

/** Default Anthropic reply: echoes the last user message. */
export const anthropicEchoReply: FakeReplyFunction = request => {
  if (request.method !== 'POST' || !request.path.endsWith('/v1/messages')) {
    return { status: 404, body: anthropicErrorBody('not_found_error', `fake server: no route ${request.method} ${request.path}`) };
  }
  const text = `echo: ${lastUserText(request)}`;
  const model = (request.body as { model?: string } | undefined)?.model;
  return {
    body: anthropicMessageBody({
      text,
      model: model ?? 'fake-claude',
      usage: { input_tokens: Math.ceil(request.rawBody.length / 4), output_tokens: Math.ceil(text.length / 4) },
    }),
  };
};

/** An Anthropic Messages server; `baseURL` is the origin (the model appends `/v1/messages`). */
export function startAnthropicServer(options: FakeServerOptions | FakeReplyFunction = {}): Promise<FakeServer> {
  const opts = typeof options === 'function' ? { reply: options } : options;
  return startFakeServer({ ...opts, reply: opts.reply ?? anthropicEchoReply });
}

/** A URL nothing listens on, for connection-refused tests: a port we bound and released. */
export async function refusedURL(path = ''): Promise<string> {
  const server = await startFakeServer();
  await server.close();
  return server.origin + path;
}
