import type { BlobRef, JsonValue, Store } from '../../core/index.js';
import type { DeckMetrics, SanitisationEntry } from '../decks/index.js';
import type { CourseOutline } from '../units/outline.js';
import type { Unit } from '../units/schema.js';
import { ORIGINAL } from '../run/plan.js';
import { slideTexts } from './slide-text.js';
import { sanitiseDeck } from '../decks/sanitise.js';

/** Artefact kind of a stored deck variant, keyed `deckKey(trial, variant)`. */
export const DECK_ARTIFACT = 'learning.deck';
export const deckKey = (trialId: string, variant: string) => `${trialId}/${variant}`;

export interface SlideRecord {
  /** 1-based, as the deck numbers its slides. */
  index: number;
  /** What a text-only reader sees. */
  text: string;
  /** The rendered 1280x720 PNG. */
  png: BlobRef | null;
}

interface DeckRecordBase {
  trialId: string;
  unit: string;
  generator: { alias: string; spec: string };
  variant: string;
}

/** One deck variant as stored: the sanitised HTML and PNGs as blobs, its text, D3 metrics and what was changed. */
export type DeckRecord =
  | (DeckRecordBase & {
    status: 'ok';
    html: BlobRef;
    slides: SlideRecord[];
    metrics: DeckMetrics;
    sanitisation: SanitisationEntry[];
    /** What the error injection changed; null for the deck as generated. */
    change: JsonValue;
  })
  | (DeckRecordBase & { status: 'rejected'; reason: string; message: string; raw: BlobRef });

/** Rendering and measuring, behind one interface so the run shares one browser. */
export interface DeckRenderer {
  render(html: string, deck: string): Promise<Buffer[]>;
  measure(html: string, outline: CourseOutline): Promise<DeckMetrics>;
}

/**
 * A controlled corruption of a deck (error injection). It returns the changed HTML and a record of
 * what it changed, or why the deck has nothing it could change.
 */
export interface DeckInjection {
  readonly kind: string;
  /** The dimension family it corrupts (knowledge, pedagogy, visual, integrity). */
  readonly family: string;
  apply(html: string, unit: Unit, seed: number): { html: string; change: JsonValue } | { notApplicable: string };
}

export interface DeckRecordInput {
  store: Store;
  renderer: DeckRenderer;
  injections: ReadonlyMap<string, DeckInjection>;
  trialId: string;
  unit: Unit;
  outline: CourseOutline;
  generator: DeckRecordBase['generator'];
  /** The deck HTML as the generator gave it. */
  raw: string;
  variants: ReadonlyArray<string>;
  /** Seed of the injections (the run's). */
  seed: number;
}

/**
 * Sanitise the generator's deck, derive each error-injected variant from it, and store every
 * variant: HTML and PNGs as blobs (content-addressed, so a resumed run writes the same bytes again),
 * slide text and D3 metrics in the record. A rejected answer is stored with its reason, never rendered.
 */
export async function deckRecords(o: DeckRecordInput): Promise<DeckRecord[]> {
  const base = { trialId: o.trialId, unit: o.unit.id, generator: o.generator };
  const clean = sanitiseDeck(o.raw);
  if (!clean.ok) {
    const raw = await o.store.putBlob(Buffer.from(o.raw, 'utf8'), 'text/html');
    return o.variants.map(variant => ({ ...base, variant, status: 'rejected', reason: clean.reason, message: clean.message, raw }));
  }
  const out: DeckRecord[] = [];
  for (const variant of o.variants) {
    let html = clean.html;
    let change: JsonValue = null;
    if (variant !== ORIGINAL) {
      const injection = o.injections.get(variant);
      if (!injection) throw new Error(`no error injection "${variant}"`);
      const injected = injection.apply(clean.html, o.unit, o.seed);
      if ('notApplicable' in injected) {
        out.push({ ...base, variant, status: 'rejected', reason: 'nothing-to-inject', message: `${variant}: ${injected.notApplicable}`, raw: await o.store.putBlob(Buffer.from(clean.html, 'utf8'), 'text/html') });
        continue;
      }
      const again = sanitiseDeck(injected.html);
      if (!again.ok) throw new Error(`the ${variant} injection made a deck that is not one (${again.reason}): ${again.message}`);
      html = again.html;
      change = injected.change;
    }
    const name = `${o.unit.id} by ${o.generator.alias} (${variant})`;
    const pngs = await o.renderer.render(html, name);
    const texts = slideTexts(html);
    const slides: SlideRecord[] = [];
    for (const [i, text] of texts.entries()) slides.push({ index: i + 1, text, png: pngs[i] ? await o.store.putBlob(pngs[i]!, 'image/png') : null });
    out.push({
      ...base, variant, status: 'ok', html: await o.store.putBlob(Buffer.from(html, 'utf8'), 'text/html'), slides,
      metrics: await o.renderer.measure(html, o.outline), sanitisation: variant === ORIGINAL ? clean.report : [], change,
    });
  }
  return out;
}
