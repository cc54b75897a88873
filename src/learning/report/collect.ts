import type { Judgment, ModelSpec, Store } from '../../core/index.js';
import { markAnswer, type Mark } from '../outcomes/index.js';
import type { Frames } from '../run/config.js';
import { DECK_JUDGE_STEP, ORIGINAL, STUDY_ARTIFACT, type Dimension } from '../run/plan.js';
import { ANSWERS_ARTIFACT, type LearnerRecord } from '../steps/answers.js';
import { DECK_ARTIFACT, type DeckRecord } from '../steps/deck-record.js';
import type { TestPhase } from '../steps/protocol.js';
import type { Unit } from '../units/schema.js';

/** The study as the run stored it (`learning.study` / `design`). */
export interface StudyDesign {
  units: Array<{ id: string; hash: string }>;
  unitContent: Unit[];
  generators: ModelSpec[];
  learners: ModelSpec[];
  judges: ModelSpec[];
  repeats: number;
  puzzleContext: boolean[];
  frames: Frames[];
  inject: string[];
  seed: number;
}

/** One learner trial, marked: the share right per test phase (null when the phase had no items). */
export interface MarkedLearner {
  record: LearnerRecord;
  generator: string;
  scores: Record<TestPhase, number | null>;
  marks: Array<{ phase: TestPhase; index: number; mark: Mark; correct: boolean }>;
}

export interface StudyData {
  runId: string;
  design: StudyDesign;
  units: Map<string, Unit>;
  /** Deck trial id -> generator alias. */
  decks: Map<string, DeckRecord[]>;
  learners: MarkedLearner[];
  /** Learner trials that failed (provider errors: excluded, never marked wrong). */
  failedLearners: LearnerRecord[];
  judgments: Judgment[];
}

/** Everything a learning report needs, read from the store; answers are marked here (outcomes' markAnswer: the suites' normalised exact match). */
export async function collectStudy(store: Store, runId: string): Promise<StudyData> {
  const design = (await store.listArtifacts(runId, STUDY_ARTIFACT)).find(a => a.key === 'design')?.value as unknown as StudyDesign | undefined;
  if (!design) throw new Error(`run ${runId} holds no learning study design; is it a learning run?`);
  const units = new Map(design.unitContent.map(u => [u.id, u]));
  const decks = new Map<string, DeckRecord[]>();
  for (const { value } of await store.listArtifacts(runId, DECK_ARTIFACT)) {
    const r = value as unknown as DeckRecord;
    (decks.get(r.trialId) ?? decks.set(r.trialId, []).get(r.trialId)!).push(r);
  }
  const generatorOf = (deck: string) => decks.get(deck)?.[0]?.generator.alias ?? '?';
  const learners: MarkedLearner[] = [];
  const failedLearners: LearnerRecord[] = [];
  for (const { value } of await store.listArtifacts(runId, ANSWERS_ARTIFACT)) {
    const record = value as unknown as LearnerRecord;
    if (record.status === 'failed') failedLearners.push(record);
    else if (record.status === 'done') learners.push(markLearner(record, units.get(record.unit)!, generatorOf(record.deck)));
  }
  const judgments = (await store.listJudgments(runId)).filter(j => j.producer.name === DECK_JUDGE_STEP);
  return { runId, design, units, decks, learners, failedLearners, judgments };
}

export function markLearner(record: LearnerRecord, unit: Unit, generator: string): MarkedLearner {
  const marks = record.answers.map(a => {
    const mark = markAnswer(unit[a.set][a.index]!, a.answer === null ? { type: 'unparseable', reason: a.reason ?? 'no answer' } : { type: 'answer', text: a.answer });
    return { phase: a.phase, index: a.index, mark, correct: mark.status === 'right' };
  });
  const share = (phase: TestPhase) => {
    const own = marks.filter(m => m.phase === phase);
    return own.length ? own.filter(m => m.correct).length / own.length : null;
  };
  return { record, generator, marks, scores: { pretest: share('pretest'), posttest: share('posttest'), near: share('near'), far: share('far') } };
}

export const judgmentDimension = (j: Judgment) => j.details?.dimension as Dimension;
export const judgmentVariant = (j: Judgment) => (j.details?.deckVariant as string | undefined) ?? ORIGINAL;
