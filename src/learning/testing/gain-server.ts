import { openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';
import type { Unit } from '../units/schema.js';
import { deckOfSlides, slideHtml } from './study-server.js';

/**
 * The learning-validity worked example (docs/validity.md), scripted: each generator writes decks
 * of a fixed length, the learner learns more from longer decks (how much more depends on the
 * unit), and two judges rate the decks, one by their length and one against it, so the decks'
 * gains differ and the judges' tau with gain is worth computing.
 */
export const EXAMPLE_UNITS = ['abma-serial-verbs', 'nahuatl-verb-forms', 'nen-person-and-number'];
/** Slides per deck of each generator model. */
export const SLIDES_OF: Readonly<Record<string, number>> = { 'generator-a': 5, 'generator-b': 4, 'generator-c': 3, 'generator-d': 2 };
/** How many posttest items a deck of k slides teaches beyond k - 2, per unit. */
const UNIT_OFFSET: Readonly<Record<string, number>> = { 'abma-serial-verbs': 0, 'nahuatl-verb-forms': -1, 'nen-person-and-number': 1 };

/** Source items the learner answers right after studying a deck of `slides` slides of `unit` (the first ones, never on the pretest). */
export function itemsLearned(unit: string, slides: number, sourceItems: number): number {
  return Math.max(0, Math.min(sourceItems, slides - 2 + (UNIT_OFFSET[unit] ?? 0)));
}

/** The sub-dimension rating a scripted judge gives a deck of `slides` slides on a dimension (`judge-b` fails on D1 of two-slide decks). */
export function judgeRating(judge: string, dimension: 'd1' | 'd2', slides: number): number | null {
  if (judge === 'judge-b' && dimension === 'd1' && slides === 2) return null;
  return judge === 'judge-b' && dimension === 'd2' ? 7 - slides : Math.min(5, slides);
}

/** Every text of every message of a request (a judge's retry holds the deck only in earlier messages). */
function allText(req: RecordedRequest): string {
  const messages = (req.body as { messages: Array<{ content: unknown }> }).messages;
  return messages.map(m => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : '')).join('\n');
}

export function startGainServer(units: ReadonlyArray<Unit>): Promise<FakeServer> {
  const items = new Map(units.flatMap(u => u.source_items.map((item, index) => [item.prompt, { unit: u.id, index, answer: item.answer, of: u.source_items.length }] as const)));
  return startOpenAICompatibleServer(req => {
    const body = req.body as { model: string; messages: Array<{ content: unknown }> };
    const system = String(body.messages[0]?.content ?? '');
    const text = allText(req);
    const reply = (t: string) => ({ status: 200, body: openAIChatBody({ text: t, usage: { prompt_tokens: 80, completion_tokens: 20 } }) });
    if (system.startsWith('You write teaching slide decks')) {
      const unit = /Unit `([^`]+)`/.exec(text)?.[1] ?? 'unit';
      const k = SLIDES_OF[body.model] ?? 1;
      return reply(deckOfSlides(unit, Array.from({ length: k }, (_, i) => slideHtml(i === 0 ? `<h1>${unit}</h1>` : `<h2>Part ${i}</h2><p>One rule with an example.</p>`))));
    }
    if (system.startsWith('You rate a teaching slide deck')) {
      const k = Number(/The deck, (\d+) slide/.exec(text)?.[1] ?? 0);
      const dimension = system.includes('linguistic validity') ? 'd1' : 'd2';
      const v = judgeRating(body.model, dimension, k);
      if (v === null) return reply('The deck is too short to rate.');
      const keys = [...system.matchAll(/^- (\w+):/gm)].map(m => m[1]!);
      return reply(JSON.stringify({ ...Object.fromEntries(keys.map(key => [key, v])), rationale: `a deck of ${k} slides` }));
    }
    if (text.includes('one slide at a time')) {
      const k = /Slide \d+ of (\d+)/.exec(text)?.[1];
      return reply(`Notes: a lesson of ${k} slides. LESSON-${k}`);
    }
    const prompt = /Question: (.*)\n/.exec(text)?.[1];
    const hit = prompt ? items.get(prompt) : undefined;
    const studied = Number(/LESSON-(\d+)/.exec(text)?.[1] ?? 0);
    if (hit && studied && hit.index < itemsLearned(hit.unit, studied, hit.of)) return reply(`From my notes.\nAnswer: ${hit.answer}`);
    return reply('I am not sure.\nAnswer: unknown');
  });
}
