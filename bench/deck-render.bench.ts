import { fileURLToPath } from 'node:url';
import { buildOutline, loadUnits } from '../src/learning/units/index.js';
import { createOutlineDeckGenerator, generateDeck, launchBrowser, renderSlides } from '../src/learning/decks/index.js';
import { medianSeconds, type BenchFigure } from './harness.js';

// The workload: the baseline:outline deck of every shipped unit, rendered slide by slide to PNG in one
// shared Chromium, as a run rendering generated decks would. No target is stated in the issue; 5 slides/s
// (one 60-slide deck in 12 s) is the floor chosen here for a run of many decks to stay interactive.
const TARGET_SLIDES_PER_SECOND = 5;

export default async function deckRenderBench(): Promise<BenchFigure[]> {
  const units = loadUnits([fileURLToPath(new URL('../../data/units', import.meta.url))]);
  const decks: string[] = [];
  for (const { unit } of units) {
    const deck = await generateDeck(createOutlineDeckGenerator(), buildOutline(unit));
    if (deck.ok) decks.push(deck.html);
  }
  const browser = await launchBrowser();
  try {
    let slides = 0;
    const seconds = await medianSeconds(async () => {
      slides = 0;
      for (const [i, html] of decks.entries()) slides += (await renderSlides(browser, html, `outline-${i}`)).length;
    }, 3);
    const rate = slides / seconds;
    return [{
      name: `slides rendered per second (${decks.length} baseline:outline decks, ${slides} slides, 1280x720 PNG)`,
      ours: rate, reference: TARGET_SLIDES_PER_SECOND, unit: 'slides/s',
      referenceLabel: 'floor chosen for issue #11', target: `>= ${TARGET_SLIDES_PER_SECOND} slides/s`, met: rate >= TARGET_SLIDES_PER_SECOND,
    }];
  } finally {
    await browser.close();
  }
}
