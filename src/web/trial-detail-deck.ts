import type { Store } from '../core/index.js';
import { collectStudy } from '../learning/report/index.js';
import { ORIGINAL } from '../learning/run/plan.js';
import { DECK_ARTIFACT, type DeckRecord } from '../learning/steps/deck-record.js';

/** A deck as generated, for its trial page: slides (PNG blobs by hash), its judgments and its learners' marked answers. */
export interface DeckView {
  trialId: string;
  unit: string;
  generator: { alias: string; spec: string };
  status: 'ok' | 'rejected';
  /** Why a rejected deck was rejected. */
  rejected: { reason: string; message: string } | null;
  slides: Array<{ index: number; text: string; png: string | null }>;
  judgments: Array<{ judge: string; dimension: string; repeat: number; value: number | null; fields: Record<string, unknown>; reason: string | null }>;
  learners: Array<{
    trialId: string; learner: string; puzzleContext: boolean; frames: string;
    scores: Record<'pretest' | 'posttest' | 'near' | 'far', number | null>;
    answers: Array<{ phase: string; prompt: string; answer: string | null; reason: string | null; correct: boolean }>;
  }>;
}

async function decksOf(store: Store, runId: string): Promise<DeckRecord[]> {
  return (await store.listArtifacts(runId, DECK_ARTIFACT)).map(a => a.value as unknown as DeckRecord).filter(d => d.variant === ORIGINAL);
}

/**
 * The deck a trial made (a generator's trial) or studied (a learner's trial), as the learning
 * report reads it (collectStudy: answers marked the same way); undefined for a trial of no deck.
 */
export async function deckView(store: Store, runId: string, trialId: string): Promise<DeckView | undefined> {
  const decks = await decksOf(store, runId);
  if (decks.length === 0) return undefined;
  let deck = decks.find(d => d.trialId === trialId);
  const data = await collectStudy(store, runId);
  if (!deck) {
    const learner = [...data.learners.map(l => l.record), ...data.failedLearners].find(l => l.trialId === trialId);
    deck = learner && decks.find(d => d.trialId === learner.deck);
  }
  if (!deck) return undefined;
  const own = deck;
  return {
    trialId: own.trialId, unit: own.unit, generator: own.generator, status: own.status,
    rejected: own.status === 'rejected' ? { reason: own.reason, message: own.message } : null,
    slides: own.status === 'ok' ? own.slides.map(s => ({ index: s.index, text: s.text, png: s.png?.hash ?? null })) : [],
    judgments: data.judgments.filter(j => j.targetTrialId === own.trialId && (j.details?.deckVariant ?? ORIGINAL) === ORIGINAL).map(j => ({
      judge: j.rater.alias, dimension: String(j.details?.dimension ?? ''), repeat: j.repeat, value: j.value, fields: j.fields as Record<string, unknown>, reason: j.reason ?? null,
    })),
    learners: data.learners.filter(l => l.record.deck === own.trialId && l.record.deckVariant === ORIGINAL).map(l => ({
      trialId: l.record.trialId, learner: l.record.learner.alias, puzzleContext: l.record.puzzleContext, frames: String(l.record.frames),
      scores: l.scores,
      answers: l.record.answers.map((a, i) => ({ phase: a.phase, prompt: a.prompt, answer: a.answer, reason: a.reason ?? null, correct: l.marks[i]!.correct })),
    })),
  };
}

/** Whether a blob is one of the run's slide images: the blob route serves nothing else. */
export async function isSlideOfRun(store: Store, runId: string, hash: string): Promise<boolean> {
  return (await decksOf(store, runId)).some(d => d.status === 'ok' && d.slides.some(s => s.png?.hash === hash));
}
