import type { ChatModel, ChatRequest } from '../../core/chat-model.js';

/** A small in-test ChatModel: answers by the request's role (`synthesis:<step>`, `teacher`, `judge`) and turn. */
export function roleModel(answer: (r: ChatRequest, role: string, turn: number) => string, name = 'scripted'): ChatModel & { calls: ChatRequest[] } {
  const calls: ChatRequest[] = [];
  return {
    specVersion: 'paideia.chat-model.v1', provider: 'mock', modelId: name, isBaseline: false, calls,
    generate: async function generateByRole(request) {
      calls.push(request);
      return { text: answer(request, request.context?.role ?? '', request.context?.turn ?? 0), warnings: [] };
    },
  };
}

/** Six metrics over the four Elmes+ dimensions, as a generator would write them. */
export function draftJson(tag = ''): string {
  const m = (name: string, dimension: string, weight: number) => ({ name, dimension, weight, description: `${name}${tag}: 1 when absent, 5 when consistent.`, positive: `A ${name.toLowerCase()} example`, negative: `No ${name.toLowerCase()}` });
  return `<json>${JSON.stringify({ metrics: [
    m('Adapts to the learner', 'Personalisation', 1),
    m("Uses the learner's context", 'personalisation', 3),
    m('Checks understanding', 'Teaching method professionalism', 2),
    m('Scaffolds in small steps', 'Teaching method professionalism', 2),
    m('Invites own ideas', 'Creativity stimulation', 1),
    m('Respectful and honest', 'Values integration', 5),
  ] })}</json>`;
}

export function questionsJson(n: number, persona: (k: number) => string): string {
  return `<json>${JSON.stringify({ questions: Array.from({ length: n }, (_, i) => ({
    persona: persona(i + 1),
    internal: `Explain fractions to learner ${i + 1} in at most 120 words, with one worked example and a check question.`,
    user: `Can you explain fractions? (learner ${i + 1})`,
  })) })}</json>`;
}
