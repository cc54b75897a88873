import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { lastUserText, openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../../providers/testing/fake-servers.js';
import type { Unit } from '../units/schema.js';

export const UNITS_DIR = new URL('../../../data/units', import.meta.url).pathname;
export const loadShippedUnit = (id: string): Unit => parse(readFileSync(join(UNITS_DIR, `${id}.yaml`), 'utf8')) as Unit;

interface Body { model: string; messages: Array<{ role: string; content: unknown }> }

/** Slides of the scripted decks: the good generator's deck has three, the poor one's two. */
export const GOOD_SLIDES = 3;
export const slideHtml = (body: string, exercise = false) => `<section class="slide"${exercise ? ' data-role="exercise"' : ''} style="padding:48px;font-family:'DejaVu Sans',sans-serif">${body}</section>`;
const slide = slideHtml;
/** A generator's answer: one HTML deck of these slides in a fenced block. */
export const deckOfSlides = (unitId: string, slides: ReadonlyArray<string>) =>
  `\`\`\`html\n<!DOCTYPE html><html><head><title>${unitId}</title></head><body>${slides.join('')}</body></html>\n\`\`\``;
export function scriptedDeck(model: string, unitId: string): string {
  const slides = model === 'gen-good'
    ? [slide(`<h1>${unitId}</h1><p>What the lesson teaches.</p>`), slide('<h2>Rules</h2><table><tr><td>rule</td><td>example</td></tr></table>'), slide('<h2>Practice</h2><p>Try the pattern on new words.</p>', true)]
    : [slide(`<h1>${unitId}</h1>`), slide('<p>Some words.</p>')];
  return deckOfSlides(unitId, slides);
}

/**
 * A local OpenAI-compatible server that plays every role of a learning study, scripted:
 * generators `gen-good` / `gen-poor` answer with small decks (`gen-refuses` with no HTML at all); learners `learner-strong` and
 * `learner-weak` take notes that say whether the deck had three slides, and answer right only
 * from such notes (strong: every test; weak: the posttest only), or by copying an answer a deck gave away into the notes; judges rate a three-slide deck
 * 5 and any other 2 on every sub-dimension (`judge-rambles` answers in prose, never in the format); `learner-broken` gets HTTP 400 on every call. It reads test items only to script right answers.
 */
export async function startStudyServer(units: ReadonlyArray<Unit>, o: { delayMs?: number } = {}): Promise<FakeServer> {
  const byPrompt = new Map(units.flatMap(u => (['source_items', 'near_transfer', 'far_transfer'] as const).flatMap(set => u[set].map(item => [item.prompt, { set, item }] as const))));
  return startOpenAICompatibleServer({
    reply: (req: RecordedRequest) => {
      const body = req.body as Body;
      const system = String(body.messages[0]?.content ?? '');
      const user = lastUserText(req);
      // A learner whose every call fails, so failed trials can be told from wrong answers.
      if (body.model === 'learner-broken') return { status: 400, body: { error: { message: 'scripted failure', type: 'invalid_request_error' } } };
      const text = answer(body.model, system, user, byPrompt);
      return { status: 200, ...(o.delayMs ? { delayMs: o.delayMs } : {}), body: openAIChatBody({ text, usage: { prompt_tokens: 100, completion_tokens: 20 } }) };
    },
  });
}

function answer(model: string, system: string, user: string, byPrompt: Map<string, { set: string; item: { answer: string } }>): string {
  if (system.startsWith('You write teaching slide decks')) return model === 'gen-refuses' ? 'Sorry, I cannot write slides.' : scriptedDeck(model, /Unit `([^`]+)`/.exec(user)?.[1] ?? 'unit');
  if (system.startsWith('You rate a teaching slide deck')) {
    if (model === 'judge-rambles') return 'A fine deck, I would say about a four overall.';
    const good = new RegExp(`The deck, ${GOOD_SLIDES} slide`).test(user);
    const keys = [...system.matchAll(/^- (\w+):/gm)].map(m => m[1]!);
    return JSON.stringify({ ...Object.fromEntries(keys.map(k => [k, good ? 5 : 2])), rationale: good ? 'complete' : 'thin' });
  }
  if (user.includes('one slide at a time')) {
    const good = new RegExp(`Slide \\d+ of ${GOOD_SLIDES}\\b`).test(user) || user.includes('LESSON-OK');
    // Answers a deck gives away are copied into the notes, as a learner would.
    const copied = [...new Set(user.split('\n').filter(l => l.includes(' Answer: ')))];
    return [good ? 'Notes: the rules with examples. LESSON-OK' : 'Notes: nothing I could use.', ...copied].join('\n');
  }
  const prompt = /Question: (.*)\n/.exec(user)?.[1];
  const hit = prompt ? byPrompt.get(prompt) : undefined;
  const learned = user.includes('LESSON-OK');
  const right = hit && learned && (model === 'learner-strong' || hit.set === 'source_items');
  if (right) return `I apply the rules.\nAnswer: ${hit.item.answer}`;
  const flat = (t: string) => t.replace(/\s+/g, ' ');
  if (hit && prompt && flat(user).includes(flat(`${prompt} Answer: ${hit.item.answer}`))) return `It is in my notes.\nAnswer: ${hit.item.answer}`;
  return 'I am not sure.\nAnswer: unknown';
}
