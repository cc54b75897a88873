import type { DeckMetrics } from '../decks/metrics.js';
import { DIMENSIONS, ORIGINAL, type Dimension } from '../run/plan.js';
import { SCALE } from '../steps/rubric.js';
import { D3_KEYS, deckGains, deckId } from './build.js';
import { judgmentDimension, judgmentVariant, type StudyData } from './collect.js';

/** A deck as the validity analysis sees it: one observation, which is also its own unit. */
export interface RatedDeck {
  /** `<unit>/<generator>`: the observation and unit id (expert and outcome files name decks by it). */
  id: string;
  unit: string;
  generator: string;
  /** Learner gain: posttest share right - pretest share right per learner trial, averaged over the deck's learner trials; null when none finished. */
  gain: number | null;
  /** Learner trials the gain averages (every learner and repeat of the primary condition). */
  learnerTrials: number;
  /** The deck as a text-only reader (and a judge without images) sees it, slide by slide; for a rejected deck, why. */
  text: string;
  /** D3 metrics of the deck; null when the deck was rejected or the metric undefined. */
  d3: Record<(typeof D3_KEYS)[number], number | null>;
}

/** One judge's D1 or D2 rating of one deck (the mean of its sub-dimensions), or unscored with the reason. */
export interface DeckRating {
  observation: string;
  item: Dimension;
  rater: string;
  /** The judge prompt's version (D1 and D2 share it, so the items are crossed with it). */
  prompt: string;
  repeat: string;
  score: number | null;
  unscoredReason?: string;
}

export interface DeckRatings {
  decks: RatedDeck[];
  ratings: DeckRating[];
  /** D1 and D2 are means of 1-5 sub-dimension ratings, so they lie on 1-5. */
  scales: ReadonlyMap<Dimension, { min: number; max: number }>;
}

/**
 * The decks as generated, their judges' D1/D2 ratings and their learner gains: what
 * `validity analyze --run` and the learning report's alignment section analyse. Judgments of
 * error-injected variants are left out (their decks are not the ones the gains were measured on).
 */
export function deckRatings(data: StudyData): DeckRatings {
  const gains = deckGains(data);
  const decks: RatedDeck[] = [];
  const byTrial = new Map<string, string>();
  for (const [trialId, records] of data.decks) {
    const deck = records.find(r => r.variant === ORIGINAL);
    if (!deck) continue;
    const id = deckId(deck.unit, deck.generator.alias);
    byTrial.set(trialId, id);
    const metrics = deck.status === 'ok' ? (deck.metrics as DeckMetrics) : undefined;
    const g = gains.get(id);
    decks.push({
      id, unit: deck.unit, generator: deck.generator.alias, gain: g?.gain ?? null, learnerTrials: g?.trials ?? 0,
      text: deck.status === 'ok' ? deck.slides.map(x => `Slide ${x.index}:\n${x.text}`).join('\n\n') : `rejected (${deck.reason}): ${deck.message}`,
      d3: Object.fromEntries(D3_KEYS.map(k => [k, metrics && typeof metrics[k] === 'number' ? metrics[k] : null])) as RatedDeck['d3'],
    });
  }
  const ratings: DeckRating[] = [];
  for (const j of data.judgments) {
    const observation = byTrial.get(j.targetTrialId);
    if (observation === undefined || judgmentVariant(j) !== ORIGINAL) continue;
    const base = { observation, item: judgmentDimension(j), rater: j.rater.alias, prompt: j.producer.version, repeat: String(j.repeat) };
    ratings.push(j.value === null ? { ...base, score: null, unscoredReason: j.reason ?? 'the judgment is unscored' } : { ...base, score: j.value });
  }
  decks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { decks, ratings, scales: new Map(DIMENSIONS.map(d => [d, { min: SCALE.min, max: SCALE.max }])) };
}
