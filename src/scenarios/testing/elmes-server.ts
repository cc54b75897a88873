import { fileURLToPath } from 'node:url';
import { contentHash } from '../../core/hash.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';

/** The folder of the ELMES-shaped fixtures (classic.yaml, plus-short.yaml). */
export const ELMES_FIXTURES = fileURLToPath(new URL('./elmes/', import.meta.url));

interface Body {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  tools?: Array<{ function: { name: string; parameters: { properties: Record<string, { type: string }> } } }>;
}

/** A score from 1 to `top` that depends on the judged text, so dialogues get different scores. */
function scoreOf(text: string, field: string, top: number): number {
  return 1 + (parseInt(contentHash({ text, field }, 8), 16) % top);
}

/**
 * A local OpenAI-compatible server that plays a scripted lesson: a judge's request (a tool to
 * call, or a prompt-mode JSON Schema in its last message) gets scores that depend on the transcript, the
 * teacher asks once and then ends with `<end>`, the student answers. Every request is recorded.
 * `noisyJudge` makes a judge's scores depend on the request too, so its repeats vary. `delayMs`
 * answers each request that late, and `inFlight` then counts the requests being answered (`most`:
 * the largest count seen), so a test can tell how many calls a run had going at once.
 */
export function startElmesServer(o: { top?: number; noisyJudge?: boolean; delayMs?: number; inFlight?: { now: number; most: number } } = {}): Promise<FakeServer> {
  const top = o.top ?? 5;
  return startOpenAICompatibleServer((request: RecordedRequest, index: number) => {
    const reply = answer(request, index);
    if (!o.delayMs) return reply;
    const counter = o.inFlight;
    if (counter) {
      counter.most = Math.max(counter.most, ++counter.now);
      setTimeout(() => counter.now--, o.delayMs);
    }
    return { ...reply, delayMs: o.delayMs };
  });

  function answer(request: RecordedRequest, index: number): { body: unknown } {
    const body = request.body as Body;
    const messages = body.messages ?? [];
    const system = messages.find(m => m.role === 'system')?.content ?? '';
    // A noisy judge answers each request anew (repeats differ), as a sampled model does.
    const transcript = messages.map(m => m.content).join('\n') + (o.noisyJudge ? `#${index}` : '');
    const tool = body.tools?.[0]?.function;
    if (tool) {
      const args = Object.fromEntries(Object.entries(tool.parameters.properties).map(([k, p]) => [k,
        p.type === 'boolean' ? scoreOf(transcript, k, 2) === 2 : p.type === 'string' ? 'fine' : scoreOf(transcript, k, top)]));
      return { body: openAIChatBody({ text: '', toolCalls: [{ name: tool.name, arguments: JSON.stringify(args) }], model: body.model ?? 'judge' }) };
    }
    const schemaLine = messages.at(-1)?.content.split('\n').find(l => l.startsWith('{"type":"object"'));
    if (schemaLine) {
      const schema = JSON.parse(schemaLine) as { properties: Record<string, { type: string; minimum?: number; maximum?: number }> };
      const answer = Object.fromEntries(Object.entries(schema.properties).map(([k, p]) => [k,
        p.type === 'boolean' ? true : p.type === 'string' ? 'fine' : Math.min(p.maximum ?? top, scoreOf(transcript, k, top))]));
      return { body: openAIChatBody({ text: `<json>${JSON.stringify(answer)}</json>`, model: body.model ?? 'judge' }) };
    }
    const own = messages.filter(m => m.role === 'assistant').length;
    const teacher = /teach/i.test(system);
    const text = teacher ? (own === 0 ? 'What do you already know?' : 'Well done, that is it. <end>') : 'I think it is about parts of a whole.';
    return { body: openAIChatBody({ text, model: body.model ?? 'agent' }) };
  }
}
