import type { Browser } from 'playwright-core';
import type { CourseOutline } from '../units/outline.js';
import { openDeckPage } from './browser.js';
import { COLLECT_DOM_FACTS, type DomFacts, type TextRun } from './collect-dom.js';
import { contrastRatio, mergeColours, parseRgb, type Rgb } from './colour.js';

/** A text element below the WCAG 2.x AA contrast it needs (4.5:1, or 3:1 for large text). */
export interface ContrastFailure {
  slide: number;
  text: string;
  ratio: number;
  required: number;
}

/** The D3 visual metrics of a deck. Keys are public (docs/learning.md). */
export interface DeckMetrics {
  slides: number;
  words: number;
  wordsPerSlide: number;
  tables: number;
  images: number;
  colours: number;
  exercises: number;
  overflowSlides: number;
  /** Share of the outline's requested aids found in the deck; null when no outline is known. */
  visualAids: number | null;
  contrastFailures: ContrastFailure[];
}

/** Measure a sanitised deck in the same pinned, offline page the renderer uses. */
export async function measureDeck(browser: Browser, html: string, outline?: CourseOutline): Promise<DeckMetrics> {
  const { page, context } = await openDeckPage(browser, html);
  try {
    return metricsFromFacts(await page.evaluate(COLLECT_DOM_FACTS) as DomFacts, outline);
  } finally {
    await context.close();
  }
}

/** Words are whitespace-separated tokens holding at least one letter or digit. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(t => /[\p{L}\p{N}]/u.test(t)).length;
}

export function metricsFromFacts(facts: DomFacts, outline?: CourseOutline): DeckMetrics {
  const slides = facts.slides.length;
  const words = facts.slides.reduce((n, s) => n + countWords(s.text), 0);
  const tables = facts.slides.reduce((n, s) => n + s.tables, 0);
  const images = facts.slides.reduce((n, s) => n + s.images, 0);
  const colours = mergeColours([...facts.textColours, ...facts.backgrounds, ...facts.svgPaints].map(parseRgb).filter((c): c is Rgb => c !== undefined));
  return {
    slides,
    words,
    wordsPerSlide: slides ? words / slides : 0,
    tables,
    images,
    colours: colours.length,
    exercises: facts.slides.filter(s => s.exercise).length,
    overflowSlides: facts.slides.filter(s => s.overflow).length,
    visualAids: outline ? visualAidShare(outline, tables, images) : null,
    contrastFailures: facts.textRuns.flatMap(contrastFailure),
  };
}

/** Each requested aid is met by one unused element of its kind: a table by `<table>`, the rest by an image. */
export function visualAidShare(outline: CourseOutline, tables: number, images: number): number | null {
  const requested = outline.visualAids;
  if (requested.length === 0) return null;
  let freeTables = tables;
  let freeImages = images;
  let met = 0;
  for (const aid of requested) {
    if (aid.kind === 'table' && freeTables > 0) { freeTables--; met++; }
    else if (aid.kind !== 'table' && freeImages > 0) { freeImages--; met++; }
  }
  return met / requested.length;
}

// WCAG 2.x: large text is at least 24px, or 18.66px (14pt) when bold.
function contrastFailure(run: TextRun): ContrastFailure[] {
  const fg = parseRgb(run.colour);
  const bg = parseRgb(run.background);
  if (!fg || !bg) return [];
  const large = run.fontSizePx >= 24 || (run.bold && run.fontSizePx >= 18.66);
  const required = large ? 3 : 4.5;
  const ratio = contrastRatio(fg, bg);
  return ratio < required ? [{ slide: run.slide, text: run.sample, ratio: Math.round(ratio * 100) / 100, required }] : [];
}
