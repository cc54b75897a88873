export { sanitiseDeck, type SanitisedDeck, type SanitisationEntry, type DeckRejection } from './sanitise.js';
export { launchBrowser, DeckRenderError, CHROMIUM_PATH, CHROMIUM_FLAGS } from './browser.js';
export { renderSlides } from './render.js';
export { measureDeck, metricsFromFacts, countWords, visualAidShare, type DeckMetrics, type ContrastFailure } from './metrics.js';
export { mergeColours, deltaE76, contrastRatio, parseRgb, toLab, type Rgb } from './colour.js';
export { generateDeck, type DeckGenerator, type GeneratedDeck } from './generator.js';
export { createBlankDeckGenerator, createOutlineDeckGenerator, BASELINE_DECK_GENERATORS } from './baselines.js';
