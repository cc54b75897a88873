import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutline, type CourseOutline } from '../units/outline.js';
import { loadUnits } from '../units/load.js';
import { launchBrowser } from './browser.js';
import { measureDeck, visualAidShare } from './metrics.js';
import { sanitiseDeck } from './sanitise.js';

const fixture = (name: string) => {
  const deck = sanitiseDeck(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
  if (!deck.ok) throw new Error(deck.message);
  return deck.html;
};
const chickasaw = buildOutline(loadUnits([new URL('../../../data/units/chickasaw-case-and-person.yaml', import.meta.url).pathname])[0]!.unit);

let browser: Browser;
beforeAll(async () => { browser = await launchBrowser(); });
afterAll(async () => { await browser.close(); });

describe('D3 metrics on hand-counted decks', () => {
  it('counted.html', async () => {
    const m = await measureDeck(browser, fixture('counted.html'), chickasaw);
    // Slides: three <section class="slide">.
    expect(m.slides).toBe(3);
    // Words: slide 1 "Noun classes" 2 + "Bayi marks men, 2 words." 5 + "faint text" 2 = 9;
    // slide 2 "Fill — the gap!" 3 (the dash holds no letter) + "bayi" "yara" 2 = 5; slide 3 "x" 1. Total 15.
    expect(m.words).toBe(15);
    expect(m.wordsPerSlide).toBeCloseTo(15 / 3, 12);
    // Tables: one, on slide 2.
    expect(m.tables).toBe(1);
    // Images: the <svg> and the data: <img> on slide 3.
    expect(m.images).toBe(2);
    // Colours: text black, #aaaaaa, red (#010101 is within Delta E 2 of black and merges); background white;
    // SVG fill blue and stroke green. 3 + 1 + 2 = 6.
    expect(m.colours).toBe(6);
    // Exercises: slide 2 is data-role="exercise".
    expect(m.exercises).toBe(1);
    // Overflow: slide 3 holds a 900px block inside a 720px slide.
    expect(m.overflowSlides).toBe(1);
    // The Chickasaw outline asks for a table and a diagram: the table and one image meet both.
    expect(m.visualAids).toBe(1);
    // Contrast on white at 16px needs 4.5: #aaaaaa gives 2.32, pure red 4.00; black text passes.
    expect(m.contrastFailures).toEqual([
      { slide: 1, text: 'faint text', ratio: 2.32, required: 4.5 },
      { slide: 2, text: 'Fill — the gap!', ratio: 4, required: 4.5 },
    ]);
  });

  it('images.html', async () => {
    const m = await measureDeck(browser, fixture('images.html'));
    // Images: <picture> (its <img> not counted again), <canvas>, the outer <svg> (the nested one is part of it);
    // the external <img> was removed by the sanitiser. 3.
    expect(m.images).toBe(3);
    // Words: "Images" only; the display:none paragraph is not visible text.
    expect(m.words).toBe(1);
    // Colours: black heading, white body, blue circle; the hidden magenta text is not rendered. 3.
    expect(m.colours).toBe(3);
    expect(m.tables).toBe(0);
    expect(m.exercises).toBe(0);
    expect(m.overflowSlides).toBe(0);
    // No outline given: the share of requested aids is unknown.
    expect(m.visualAids).toBeNull();
  });
});

describe('visualAidShare', () => {
  const outline = (kinds: Array<CourseOutline['visualAids'][number]['kind']>): CourseOutline =>
    ({ ...chickasaw, visualAids: kinds.map(kind => ({ kind, description: kind })) });
  it('meets each requested aid with one unused element of its kind', () => {
    // Two tables requested, one present; the chart is met by an image: 2 of 3.
    expect(visualAidShare(outline(['table', 'table', 'chart']), 1, 2)).toBeCloseTo(2 / 3, 12);
    // A diagram and an image need two images; one is there: 1 of 2.
    expect(visualAidShare(outline(['diagram', 'image']), 5, 1)).toBe(0.5);
    expect(visualAidShare(outline([]), 1, 1)).toBeNull();
  });
});
