import type { JsonValue, StepKind, Store } from '../../core/index.js';
import type { DeckGenerator } from '../decks/generator.js';
import { buildOutline } from '../units/outline.js';
import type { Unit } from '../units/schema.js';
import { DECK_STEP, type LearningCell } from '../run/plan.js';
import { DECK_ARTIFACT, deckKey, deckRecords, type DeckInjection, type DeckRenderer } from './deck-record.js';
import { DECK_PROMPT_VERSION, deckHtmlOf, deckRequest } from './deck-prompt.js';

export interface DeckStepDeps {
  store: Store;
  renderer: DeckRenderer;
  injections: ReadonlyMap<string, DeckInjection>;
  units: ReadonlyMap<string, Unit>;
  cells: ReadonlyMap<string, LearningCell>;
  /** Generators that need no model (`baseline:blank-deck`, `baseline:outline`), by alias. */
  codeGenerators: ReadonlyMap<string, DeckGenerator>;
}

/**
 * Deck generation as a step: a model generator is asked once, with the unit's outline; a code
 * generator builds its deck with no call. The deck is then sanitised, its variants derived, and
 * every variant rendered and stored. A resumed run replays the stored answer and asks nothing.
 */
export function deckStep(d: DeckStepDeps): StepKind {
  return {
    specVersion: 'paideia.step.v1',
    name: DECK_STEP,
    version: DECK_PROMPT_VERSION,
    judgesTarget: false,
    async next({ trial, results }) {
      const unit = d.units.get(trial.itemId)!;
      const cell = d.cells.get(trial.id);
      if (cell?.role !== 'deck') throw new Error(`trial ${trial.id} is not a deck trial of this run`);
      const outline = buildOutline(unit);
      const code = d.codeGenerators.get(trial.modelAlias);
      let raw: string;
      if (code) raw = await code.generate(outline);
      else if (results[0]) raw = deckHtmlOf(results[0].text);
      else return { type: 'call', model: trial.modelAlias, request: deckRequest(outline) };
      const records = await deckRecords({
        store: d.store, renderer: d.renderer, injections: d.injections, trialId: trial.id, unit, outline,
        generator: { alias: trial.modelAlias, spec: trial.modelSpec }, raw, variants: cell.variants, seed: trial.seed,
      });
      return { type: 'done', artifacts: records.map(r => ({ kind: DECK_ARTIFACT, key: deckKey(trial.id, r.variant), value: r as unknown as JsonValue })) };
    },
  };
}
