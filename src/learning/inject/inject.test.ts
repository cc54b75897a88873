import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { sanitiseDeck } from '../decks/sanitise.js';
import { injectError, INJECTIONS } from './inject.js';
import { swappableTokens } from './knowledge.js';
import { fixtureDeck, outlineDeck, shippedUnits } from './testing.js';
import { INJECTION_KINDS, type DeckChange } from './types.js';

const unit = (id: string) => shippedUnits.find(u => u.id === id)!;
const slideTexts = (html: string) => [...new JSDOM(html).window.document.querySelectorAll('section.slide')].map(s => (s.textContent ?? '').replace(/\s+/g, ' ').trim());
const tables = (html: string) => new JSDOM(html).window.document.querySelectorAll('table').length;

describe('knowledge: a rule made wrong', () => {
  it('finds affixes, else glosses, to exchange in a rule', () => {
    expect(swappableTokens("Person prefixes: ni- I; ti- you (one person); an- with final -h you (several).")).toEqual(['ni-', 'ti-', 'an-', '-h']);
    expect(swappableTokens("mwatbo before a verb means 'keeps ...ing'. nutsu 'child', sileng 'water'")).toEqual(["'keeps ...ing'", "'child'", "'water'"]);
  });

  it('exchanges two affixes in the slide that states the rule, on a real unit, and records exactly that', async () => {
    const nahuatl = unit('nahuatl-verb-forms');
    const html = await outlineDeck(nahuatl);
    const out = injectError('rule-swap', html, { unit: nahuatl, seed: 5 });
    expect(out).toMatchObject({ family: 'knowledge', kind: 'rule-swap', seed: 5 });
    expect(out.changes).toHaveLength(1);
    const change = out.changes[0] as Extract<DeckChange, { action: 'text-replaced' }>;
    const [a, b] = change.swapped;
    expect(change.before).toBe(nahuatl.rules[change.rule]);
    expect(change.after).not.toBe(change.before);
    // The tokens changed places and nothing else did: swapping back restores the rule.
    const back = change.after.split(a).map(part => part.split(b).join(a)).join(b);
    expect(back).toBe(change.before);
    const before = slideTexts(html);
    const after = slideTexts(out.html);
    expect(after.filter((t, i) => t !== before[i])).toHaveLength(1);
    expect(after[change.slide]).toContain(change.after);
    expect(injectError('rule-swap', html, { unit: nahuatl, seed: 5 })).toEqual(out);
  });

  it('falls back to glosses for a unit without affixes (Abma), and says when no rule is stated', async () => {
    const abma = unit('abma-serial-verbs');
    const out = injectError('rule-swap', await outlineDeck(abma), { unit: abma, seed: 1 });
    const change = out.changes[0] as Extract<DeckChange, { action: 'text-replaced' }>;
    expect(change.swapped.every(t => t.startsWith("'"))).toBe(true);
    const none = injectError('rule-swap', fixtureDeck('counted.html'), { unit: abma, seed: 1 });
    expect(none.changes).toEqual([]);
    expect(none.html).toBe(fixtureDeck('counted.html'));
    expect(none.notApplicable).toMatch(/no slide states a rule/);
  });

  it('corrupts a rule of every shipped unit, and different seeds can pick different rules', async () => {
    const picked = new Set<number>();
    for (const u of shippedUnits) {
      const html = await outlineDeck(u);
      expect(injectError('rule-swap', html, { unit: u, seed: 0 }).changes, u.id).toHaveLength(1);
    }
    const nahuatl = unit('nahuatl-verb-forms');
    const html = await outlineDeck(nahuatl);
    for (let seed = 0; seed < 12; seed++) picked.add((injectError('rule-swap', html, { unit: nahuatl, seed }).changes[0] as { rule: number }).rule);
    expect(picked.size).toBeGreaterThan(1);
  });
});

describe('pedagogy: examples removed, order scrambled', () => {
  it('removes every example of a real unit and keeps the rules', async () => {
    const nahuatl = unit('nahuatl-verb-forms');
    const html = await outlineDeck(nahuatl);
    const out = injectError('examples-removed', html, { unit: nahuatl, seed: 0 });
    expect(out.changes.filter(c => c.action === 'element-removed' && c.element === 'tr')).toHaveLength(nahuatl.examples.length);
    for (const e of nahuatl.examples) expect(out.html).not.toContain(`<td>${e.source}</td>`);
    expect(tables(out.html)).toBe(0);
    for (const rule of nahuatl.rules) expect(slideTexts(out.html).join(' ')).toContain(rule);
    expect(slideTexts(out.html)).toHaveLength(slideTexts(html).length);
    // Outside tables, a block goes only when it pairs a form with its translation.
    const prose = html.replace('</body>', '<section class="slide"><p>nicho:kani means I am crying.</p><p>Say nicho:kani slowly.</p></section></body>');
    const removed = injectError('examples-removed', prose, { unit: nahuatl, seed: 0 }).changes.filter(c => c.action === 'element-removed' && c.element === 'p');
    expect(removed).toEqual([{ action: 'element-removed', slide: slideTexts(html).length, element: 'p', text: 'nicho:kani means I am crying.' }]);
  });

  it('scrambles the slides with the seed, title first, every slide kept once, the order recorded', async () => {
    const html = await outlineDeck(unit('zoque-noun-and-verb-suffixes'));
    const before = slideTexts(html);
    const out = injectError('order-scrambled', html, { seed: 9 });
    const [change] = out.changes as Array<Extract<DeckChange, { action: 'slides-reordered' }>>;
    expect(change!.order[0]).toBe(0);
    expect([...change!.order].sort((a, b) => a - b)).toEqual(before.map((_, i) => i));
    expect(change!.order).not.toEqual(before.map((_, i) => i));
    expect(slideTexts(out.html)).toEqual(change!.order.map(i => before[i]));
    expect(injectError('order-scrambled', html, { seed: 9 }).html).toBe(out.html);
    expect(injectError('order-scrambled', html, { seed: 10 }).html).not.toBe(out.html);
    expect(injectError('order-scrambled', fixtureDeck('counted.html'), { seed: 1 }).changes).toHaveLength(1);
    expect(injectError('order-scrambled', fixtureDeck('images.html'), { seed: 1 }).notApplicable).toMatch(/has 1 slide/);
  });
});

describe('visual: tables flattened, colour removed', () => {
  it('turns each table into one paragraph per row (the hand-counted fixture has one table)', () => {
    const html = fixtureDeck('counted.html');
    const out = injectError('tables-flattened', html, { seed: 0 });
    expect(out.changes).toEqual([{ action: 'table-flattened', slide: 1, rows: ['bayi - yara'] }]);
    expect(tables(out.html)).toBe(0);
    expect(slideTexts(out.html)[1]).toContain('bayi - yara');
    expect(injectError('tables-flattened', fixtureDeck('images.html'), { seed: 0 }).notApplicable).toBe('the deck has no table');
  });

  it('replaces each colour by the grey of its luminance, in styles, attributes and SVG, and greys images', () => {
    const html = fixtureDeck('counted.html');
    const out = injectError('colour-removed', html, { seed: 0 });
    const greyed = out.changes as Array<Extract<DeckChange, { action: 'colour-greyed' }>>;
    // #ff0000 text, the SVG's blue fill and green stroke; #aaaaaa, #010101 and the black/white page are grey already.
    expect(greyed.map(c => [c.slide, c.where, c.before, c.after])).toEqual([
      [1, 'style attribute', '#ff0000', '#7f7f7f'],
      [2, 'fill attribute', '#0000ff', '#4c4c4c'],
      [2, 'stroke attribute', '#00ff00', '#dcdcdc'],
      [-1, 'images', '', 'grayscale(100%)'],
    ]);
    expect(out.html).not.toMatch(/#ff0000|#0000ff|#00ff00/);
    expect(out.html).toContain('color:#aaaaaa');
  });
});

describe('assessment integrity: transfer answers leaked', () => {
  it('adds practice slides carrying every near and far item with its answer', async () => {
    const nahuatl = unit('nahuatl-verb-forms');
    const html = await outlineDeck(nahuatl);
    const out = injectError('answers-leaked', html, { unit: nahuatl, seed: 0 });
    const n = slideTexts(html).length;
    const items = out.changes.flatMap(c => (c.action === 'slide-added' ? c.items : []));
    expect(items).toHaveLength(nahuatl.near_transfer.length + nahuatl.far_transfer.length);
    expect(out.changes.map(c => (c.action === 'slide-added' ? c.slide : -1))).toEqual([n, n + 1]);
    const text = slideTexts(out.html);
    expect(text).toHaveLength(n + 2);
    for (const item of [...nahuatl.near_transfer, ...nahuatl.far_transfer]) expect(text.slice(n).join(' ')).toContain(`Answer: ${item.answer}`);
  });
});

describe('every injection', () => {
  it('leaves a deck the sanitiser accepts unchanged, declares its family, and needs the unit when it reads one', async () => {
    const nahuatl = unit('nahuatl-verb-forms');
    const html = await outlineDeck(nahuatl);
    for (const kind of INJECTION_KINDS) {
      const out = injectError(kind, html, { unit: nahuatl, seed: 3 });
      expect(out.family).toBe(INJECTIONS[kind].family);
      // The outline deck is black, white and grey: colour removal has nothing to do there (see above).
      if (kind === 'colour-removed') expect(out.notApplicable).toBe('the deck has no colour to remove');
      else expect(out.changes.length, kind).toBeGreaterThan(0);
      const clean = sanitiseDeck(out.html);
      expect(clean.ok && clean.report, kind).toEqual([]);
      if (INJECTIONS[kind].needsUnit) expect(() => injectError(kind, html, { seed: 3 })).toThrow(/needs the deck's unit/);
    }
  });
});
