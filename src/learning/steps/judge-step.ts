import type { ChatMessage, ImagePart, Judgment, JsonObject, StepKind, Store, Trial } from '../../core/index.js';
import { buildOutline } from '../units/outline.js';
import { outlineMarkdown } from '../units/outline-markdown.js';
import type { Unit } from '../units/schema.js';
import { DECK_JUDGE_STEP, type Dimension, type LearningCell } from '../run/plan.js';
import type { DeckRecord } from './deck-record.js';
import { deckLookup } from './deck-lookup.js';
import { DIMENSION_NAMES, JUDGE_PROMPT_VERSION, RUBRIC, SCALE, readRatings } from './rubric.js';

/** Answers that do not fit the format are asked again this many times, then stored unscored. */
export const FORMAT_RETRIES = 2;

export interface JudgeStepDeps {
  store: Store;
  runId: string;
  units: ReadonlyMap<string, Unit>;
  cells: ReadonlyMap<string, LearningCell>;
  imageModels: ReadonlySet<string>;
}

type JudgeCell = Extract<LearningCell, { role: 'judge' }>;

/**
 * A D1 or D2 judge over one deck variant: it sees the outline (no test item) and the deck (its
 * PNGs where the judge accepts images, else its slide text), and rates each sub-dimension 1-5.
 * Its Judgment's value is the mean of the sub-dimensions; an answer that never fits is unscored.
 */
export function deckJudgeStep(d: JudgeStepDeps): StepKind {
  const decks = deckLookup(d.store, d.runId);
  return {
    specVersion: 'paideia.step.v1',
    name: DECK_JUDGE_STEP,
    version: JUDGE_PROMPT_VERSION,
    judgesTarget: true,
    async next({ trial, results }) {
      const cell = d.cells.get(trial.id) as JudgeCell | undefined;
      if (cell?.role !== 'judge') throw new Error(`trial ${trial.id} is not a judge trial of this run`);
      const deck = await decks.get(cell.deck, cell.deckVariant);
      if (!deck || deck.status !== 'ok') return { type: 'done', judgments: [judgment(trial, cell, {}, null, 'the deck was rejected; nothing to judge', { unscored: true })] };
      // Each answer that did not fit, and what was wrong with it, goes back to the judge: every
      // attempt is a request of its own (asked the same, a retry would be the cache's answer).
      const retries: ChatMessage[] = [];
      for (const [attempt, r] of results.entries()) {
        const read = readRatings(cell.dimension, r.text);
        if (read.ok) {
          const values = Object.values(read.ratings);
          return { type: 'done', judgments: [judgment(trial, cell, read.ratings, values.reduce((a, b) => a + b, 0) / values.length, read.rationale, { attempts: attempt + 1 }, r.text)] };
        }
        if (attempt === FORMAT_RETRIES) {
          return { type: 'done', judgments: [judgment(trial, cell, {}, null, `the answer did not fit the format after ${attempt + 1} attempt(s): ${read.problems.join('; ')}`, { unscored: true, attempts: attempt + 1 }, r.text)] };
        }
        retries.push({ role: 'assistant', content: r.text }, { role: 'user', content: `Your previous answer did not fit the format: ${read.problems.join('; ')}. Answer again with the JSON object only.` });
      }
      const messages = [...judgeMessages(d.units.get(cell.unit)!, deck, cell.dimension, d.imageModels.has(trial.modelAlias)), ...retries];
      return { type: 'call', model: trial.modelAlias, request: { messages, params: { temperature: 0 }, context: { itemId: cell.unit, repeat: trial.repeat, turn: results.length, role: `judge:${cell.dimension}` } }, distinct: { judgeRepeat: trial.repeat } };
    },
  };
}

function judgeMessages(unit: Unit, deck: DeckRecord & { status: 'ok' }, dimension: Dimension, images: boolean): ChatMessage[] {
  const rubric = RUBRIC[dimension];
  const system = [
    `You rate a teaching slide deck for ${DIMENSION_NAMES[dimension]}. Rate each criterion from ${SCALE.min} (very poor) to ${SCALE.max} (excellent):`,
    ...rubric.map(c => `- ${c.key}: ${c.question}`),
    `Answer with one JSON object: {${rubric.map(c => `"${c.key}": <${SCALE.min}-${SCALE.max}>`).join(', ')}, "rationale": "<one or two sentences>"}.`,
  ].join('\n');
  const outline = `The course outline the deck was written for:\n\n${outlineMarkdown(buildOutline(unit))}`;
  const pngs: ImagePart[] = deck.slides.flatMap(s => (s.png ? [{ blob: s.png }] : []));
  const slides = images && pngs.length === deck.slides.length
    ? { role: 'user' as const, content: `The deck, ${deck.slides.length} slide(s), as images in order.`, images: pngs }
    : { role: 'user' as const, content: `The deck, ${deck.slides.length} slide(s), as text:\n\n${deck.slides.map(s => `Slide ${s.index}:\n${s.text}`).join('\n\n')}` };
  return [{ role: 'system', content: system }, { role: 'user', content: outline }, slides];
}

function judgment(trial: Trial, cell: JudgeCell, fields: JsonObject, value: number | null, reason: string | undefined, details: JsonObject, raw?: string): Judgment {
  return {
    specVersion: 'paideia.judgment.v1', runId: trial.runId, trialId: trial.id, targetTrialId: trial.target!,
    rater: { alias: trial.modelAlias, spec: trial.modelSpec }, promptVariant: `${cell.dimension}@${JUDGE_PROMPT_VERSION}`, repeat: trial.repeat, fields,
    scales: Object.fromEntries(RUBRIC[cell.dimension].map(c => [c.key, { ...SCALE }])), value, ...(reason ? { reason } : {}),
    callSeq: null, producer: { name: DECK_JUDGE_STEP, version: JUDGE_PROMPT_VERSION, args: { dimension: cell.dimension, deckVariant: cell.deckVariant, judge: trial.modelAlias } },
    ...(raw !== undefined ? { raw } : {}), details: { ...details, dimension: cell.dimension, deckVariant: cell.deckVariant, unit: cell.unit },
  };
}
