import { PaideiaError } from '../../core/errors.js';
import { createRng } from '../../stats/index.js';

/**
 * The frames a learner sees in the "k frames" ablation: k of a deck's n slide indices, drawn with
 * the seed, always holding the first (title) slide, in deck order. k >= n gives every slide.
 */
export function sampleFrames(slides: number, k: number, seed: number): number[] {
  if (!Number.isInteger(slides) || slides < 1) throw new PaideiaError(`sampleFrames: a deck has at least one slide, got ${slides}`);
  if (!Number.isInteger(k) || k < 1) throw new PaideiaError(`sampleFrames: k must be a whole number of frames >= 1, got ${k}`);
  if (k >= slides) return Array.from({ length: slides }, (_, i) => i);
  const rest = Array.from({ length: slides - 1 }, (_, i) => i + 1);
  return [0, ...createRng(seed).sample(rest, k - 1).sort((a, b) => a - b)];
}
