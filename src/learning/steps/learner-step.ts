import type { JsonValue, StepKind, StepOutcome, Store, Trial, ChatResult } from '../../core/index.js';
import type { Unit } from '../units/schema.js';
import { LEARNER_STEP, type LearningCell } from '../run/plan.js';
import { ANSWERS_ARTIFACT, type LearnerAnswer, type LearnerRecord } from './answers.js';
import type { DeckRecord } from './deck-record.js';
import { deckLookup } from './deck-lookup.js';
import { answerFromExamples } from './examples-learner.js';
import { LEARNER_PROMPT_VERSION, learnerRequest, parseAnswer, protocolSteps, sampledSlides, type ProtocolStep } from './protocol.js';

export interface LearnerStepDeps {
  store: Store;
  runId: string;
  units: ReadonlyMap<string, Unit>;
  cells: ReadonlyMap<string, LearningCell>;
  /** Learners that answer in code (`baseline:examples`), by alias. */
  codeLearners: ReadonlySet<string>;
  /** Aliases whose models accept images: they study the PNGs. */
  imageModels: ReadonlySet<string>;
}

type LearnerCell = Extract<LearningCell, { role: 'learner' }>;

/**
 * A simulated learner as a step over a finished deck: the protocol's calls one after another,
 * each a fresh context (see learnerRequest). Its outcome is the learner's answers, marked later
 * by the report; a failed call fails the trial, and its answers so far are kept, never marked wrong.
 */
export function learnerStep(d: LearnerStepDeps): StepKind {
  const decks = deckLookup(d.store, d.runId);
  const cellOf = (trial: Trial): LearnerCell => {
    const cell = d.cells.get(trial.id);
    if (cell?.role !== 'learner') throw new Error(`trial ${trial.id} is not a learner trial of this run`);
    return cell;
  };
  const recordOf = (trial: Trial, cell: LearnerCell, status: LearnerRecord['status'], walk: Walk | undefined, error?: string): NonNullable<StepOutcome['artifacts']>[number] => {
    const value: LearnerRecord = {
      trialId: trial.id, unit: cell.unit, learner: { alias: trial.modelAlias, spec: trial.modelSpec }, deck: cell.deck, deckVariant: cell.deckVariant,
      puzzleContext: cell.puzzleContext, frames: cell.frames, status, answers: walk?.answers ?? [], studied: walk?.studied ?? [], notes: walk?.notes ?? null,
      ...(error ? { error } : {}),
    };
    return { kind: ANSWERS_ARTIFACT, key: trial.id, value: value as unknown as JsonValue };
  };
  const walkOf = (trial: Trial, cell: LearnerCell, deck: DeckRecord & { status: 'ok' }, results: ReadonlyArray<ChatResult>) =>
    walk(d.units.get(cell.unit)!, cell, deck, results, d.codeLearners.has(trial.modelAlias), d.imageModels.has(trial.modelAlias), trial.seed);
  return {
    specVersion: 'paideia.step.v1',
    name: LEARNER_STEP,
    version: LEARNER_PROMPT_VERSION,
    judgesTarget: true,
    async next({ trial, results }) {
      const cell = cellOf(trial);
      const deck = await decks.get(cell.deck, cell.deckVariant);
      if (!deck || deck.status !== 'ok') return { type: 'done', artifacts: [recordOf(trial, cell, 'no-deck', undefined)] };
      const w = walkOf(trial, cell, deck, results);
      if (w.next) return { type: 'call', model: trial.modelAlias, request: w.next, distinct: { learnerRepeat: trial.repeat } };
      return { type: 'done', artifacts: [recordOf(trial, cell, 'done', w)] };
    },
    failed({ trial, results }, error) {
      const cell = cellOf(trial);
      const deck = decks.peek(cell.deck, cell.deckVariant);
      const w = deck?.status === 'ok' ? walkOf(trial, cell, deck, results) : undefined;
      return { artifacts: [recordOf(trial, cell, 'failed', w, `call ${error.step} (${w?.at?.phase ?? '?'}): ${error.message}`)] };
    },
  };
}

interface Walk {
  answers: LearnerAnswer[];
  studied: number[];
  notes: string | null;
  /** The next request, or undefined when the protocol is complete. */
  next?: ReturnType<typeof learnerRequest>;
  at?: ProtocolStep;
}

/** Where the protocol stands after the replies given: a pure function of them, so a resume replays. */
function walk(unit: Unit, cell: LearnerCell, deck: DeckRecord & { status: 'ok' }, results: ReadonlyArray<ChatResult>, inCode: boolean, images: boolean, seed: number): Walk {
  const studied = sampledSlides(deck.slides, cell.frames, seed);
  const out: Walk = { answers: [], studied: studied.map(s => s.index), notes: null };
  let replies = 0;
  for (const step of protocolSteps(unit, studied)) {
    if (inCode) {
      if (step.phase !== 'study') out.answers.push({ phase: step.phase, set: step.set, index: step.index, prompt: step.item.prompt, ...answerFromExamples(unit, step.item) });
      continue;
    }
    const result = results[replies];
    if (!result) {
      out.at = step;
      out.next = learnerRequest(step, { unit, puzzleContext: cell.puzzleContext, images, ...(step.phase !== 'pretest' && out.notes !== null ? { notes: out.notes } : {}) });
      return out;
    }
    replies++;
    if (step.phase === 'study') out.notes = result.text.trim();
    else out.answers.push({ phase: step.phase, set: step.set, index: step.index, prompt: step.item.prompt, ...parseAnswer(result.text), raw: result.text });
  }
  return out;
}
