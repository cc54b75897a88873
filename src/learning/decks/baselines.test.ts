import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadUnits } from '../units/load.js';
import { buildOutline } from '../units/outline.js';
import { leaks } from '../units/leak.js';
import { ITEM_SETS } from '../units/schema.js';
import { createBlankDeckGenerator, createOutlineDeckGenerator, BASELINE_DECK_GENERATORS } from './baselines.js';
import { generateDeck, type DeckGenerator } from './generator.js';

const units = loadUnits([fileURLToPath(new URL('../../../data/units', import.meta.url))]).map(u => u.unit);

describe('baseline decks', () => {
  it('baseline:blank-deck is one title slide', async () => {
    const deck = await generateDeck(createBlankDeckGenerator(), buildOutline(units[0]!));
    expect(deck).toMatchObject({ ok: true, slides: 1, report: [], generator: { name: 'baseline:blank-deck', version: '1', args: {} } });
    if (deck.ok) expect(deck.html).toContain(`<h1>${units[0]!.title}</h1>`);
  });

  it('baseline:outline carries every rule and example of each unit as slides, and no answer', async () => {
    for (const unit of units) {
      const outline = buildOutline(unit);
      const deck = await generateDeck(createOutlineDeckGenerator(), outline);
      if (!deck.ok) throw new Error(`${unit.id}: ${deck.message}`);
      expect(deck.report, unit.id).toEqual([]);
      expect(deck.slides).toBeGreaterThanOrEqual(4);
      const text = deck.html.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      for (const rule of unit.rules) expect(text, unit.id).toContain(rule.replace(/[<>]/g, ''));
      for (const e of unit.examples) expect(text).toContain(`<td>${e.source}</td><td>${e.target}</td>`);
      for (const set of ITEM_SETS) for (const item of unit[set]) expect(leaks(item.answer, text), `${unit.id}: ${item.answer}`).toBe(false);
    }
  });

  it('registers both baselines by name', () => {
    expect(Object.keys(BASELINE_DECK_GENERATORS)).toEqual(['baseline:blank-deck', 'baseline:outline']);
    expect(BASELINE_DECK_GENERATORS['baseline:outline']!().name).toBe('baseline:outline');
  });

  it('a generator answer that is not a deck comes back failed with its reason', async () => {
    const chatty: DeckGenerator = { name: 'test:chatty', version: '1', args: { temperature: 0 }, generate: async () => 'I cannot make slides.' };
    expect(await generateDeck(chatty, buildOutline(units[0]!))).toEqual({
      ok: false, reason: 'not-html', message: 'the answer holds no HTML document (no <html>, <body> or <section>)',
      generator: { name: 'test:chatty', version: '1', args: { temperature: 0 } },
    });
  });
});
