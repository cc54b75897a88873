import { contentHash, type ModelSpec, type Trial } from '../../core/index.js';
import type { Unit } from '../units/schema.js';
import type { Frames, LearningRunSettings } from './config.js';

/** Step kinds of a learning run. */
export const DECK_STEP = 'learning-deck';
export const LEARNER_STEP = 'learning-learner';
export const DECK_JUDGE_STEP = 'learning-judge';

/** Artefact kind of a learning run's resolved study design (the report reads it). */
export const STUDY_ARTIFACT = 'learning.study';

/** The deck as generated; error-injection families add variants beside it. */
export const ORIGINAL = 'original';
export type Dimension = 'd1' | 'd2';
export const DIMENSIONS: ReadonlyArray<Dimension> = ['d1', 'd2'];

/** What one trial of a learning run is about, beyond the Trial's own fields. */
export type LearningCell =
  | { role: 'deck'; unit: string; variants: string[] }
  | { role: 'learner'; unit: string; deck: string; deckVariant: string; puzzleContext: boolean; frames: Frames }
  | { role: 'judge'; unit: string; deck: string; deckVariant: string; dimension: Dimension };

export interface LearningPlan {
  trials: Trial[];
  cells: Map<string, LearningCell>;
}

export interface PlanInput {
  runId: string;
  units: ReadonlyArray<Unit>;
  generators: ReadonlyArray<ModelSpec>;
  learners: ReadonlyArray<ModelSpec>;
  judges: ReadonlyArray<ModelSpec>;
  settings: Pick<LearningRunSettings, 'repeats' | 'puzzleContext' | 'frames' | 'inject' | 'seed'>;
  /** Versions of the steps' prompts: part of each trial's identity. */
  versions: { deck: string; learner: string; judge: string };
}

export const unitHash = (unit: Unit) => contentHash(unit);
const framesLabel = (f: Frames) => (f === 'all' ? 'all' : `${f}-frames`);

/**
 * Trials in a deterministic order: decks (unit x generator), then learners (deck variant x learner
 * x puzzle context x frames x repeat) and judges (deck variant x judge x dimension x repeat), both
 * over a finished deck. Ids are content hashes, so the same study resumes the same trials.
 */
export function planLearningTrials(p: PlanInput): LearningPlan {
  const trials: Trial[] = [];
  const cells = new Map<string, LearningCell>();
  const variants = [ORIGINAL, ...p.settings.inject];
  const add = (t: Omit<Trial, 'index' | 'runId' | 'seed'>, cell: LearningCell) => {
    trials.push({ ...t, runId: p.runId, index: trials.length, seed: p.settings.seed });
    cells.set(t.id, cell);
  };
  const decks: Array<{ id: string; unit: Unit; hash: string }> = [];
  for (const unit of p.units) {
    const hash = unitHash(unit);
    for (const g of p.generators) {
      const id = contentHash({ unit: hash, generator: g.spec, version: p.versions.deck, variants });
      add({ id, itemId: unit.id, itemHash: hash, test: 'learning:deck', modelAlias: g.alias, modelSpec: g.spec, promptVersion: p.versions.deck, repeat: 0, kind: DECK_STEP, variant: 'default' },
        { role: 'deck', unit: unit.id, variants });
      decks.push({ id, unit, hash });
    }
  }
  for (const deck of decks) {
    for (const deckVariant of variants) {
      for (const l of p.learners) {
        for (const puzzleContext of p.settings.puzzleContext) {
          for (const frames of p.settings.frames) {
            for (let repeat = 0; repeat < p.settings.repeats; repeat++) {
              const id = contentHash({ deck: deck.id, deckVariant, learner: l.spec, puzzleContext, frames, repeat, version: p.versions.learner });
              add({
                id, itemId: deck.unit.id, itemHash: deck.hash, test: 'learning:learner', modelAlias: l.alias, modelSpec: l.spec, promptVersion: p.versions.learner,
                repeat, kind: LEARNER_STEP, variant: `${deckVariant}/${puzzleContext ? 'context' : 'no-context'}/${framesLabel(frames)}`, target: deck.id,
              }, { role: 'learner', unit: deck.unit.id, deck: deck.id, deckVariant, puzzleContext, frames });
            }
          }
        }
      }
      for (const j of p.judges) {
        for (const dimension of DIMENSIONS) {
          for (let repeat = 0; repeat < p.settings.repeats; repeat++) {
            const id = contentHash({ deck: deck.id, deckVariant, judge: j.spec, dimension, repeat, version: p.versions.judge });
            add({
              id, itemId: deck.unit.id, itemHash: deck.hash, test: `learning:${dimension}`, modelAlias: j.alias, modelSpec: j.spec, promptVersion: p.versions.judge,
              repeat, kind: DECK_JUDGE_STEP, variant: `${dimension}/${deckVariant}`, target: deck.id,
            }, { role: 'judge', unit: deck.unit.id, deck: deck.id, deckVariant, dimension });
          }
        }
      }
    }
  }
  return { trials, cells };
}
