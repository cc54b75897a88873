import type { ChatModel } from '../../core/chat-model.js';

/** A weighted seed dimension of the rubric. */
export interface SeedDimension {
  name: string;
  weight: number;
}

/** The Elmes+ seed dimensions (Liu et al. 2026). */
export const DEFAULT_DIMENSIONS: ReadonlyArray<SeedDimension> = [
  { name: 'Personalisation', weight: 0.3 },
  { name: 'Teaching method professionalism', weight: 0.4 },
  { name: 'Creativity stimulation', weight: 0.2 },
  { name: 'Values integration', weight: 0.1 },
];

/** Every metric is scored on this scale. */
export const SCALE = { min: 1, max: 5 } as const;

/** One rubric metric. Name, field, dimension and weight never change after the draft. */
export interface Metric {
  name: string;
  /** The format field: the name as a lower-case identifier. */
  field: string;
  dimension: string;
  /** Share of the total score; the metrics of a dimension sum to its seed weight. */
  weight: number;
  /** Operational: what to look for and what earns each end of the scale. */
  description: string;
  positive: string;
  negative: string;
}

/** A test question in two versions: what is asked, and what is judged. */
export interface TestQuestion {
  id: string;
  persona: string;
  /** The question with the format constraints a good answer must meet (for the judge). */
  internal: string;
  /** The question as the learner asks it, without format constraints (for the answerer). */
  user: string;
}

export interface Case {
  question: TestQuestion;
  answer: string;
}

/** A judge's scores of one case, by metric field, on SCALE; null when its answer never fit. */
export type CaseScores = Record<string, number | null>;

export type MetricFlag = 'too-strict' | 'too-lenient' | 'weak';

/** A metric's score distribution in one round, normalised to [0, 1]. */
export interface MetricStats {
  field: string;
  n: number;
  mean: number | null;
  sd: number | null;
  flags: MetricFlag[];
}

/** What evolves: the metric descriptions and the question-generation prompt. */
export interface RubricVersion {
  metrics: Metric[];
  generationPrompt: string;
}

export interface Thresholds {
  /** Too strict: normalised mean at or below this (1.8 on 1-5). */
  strictMean: number;
  /** Too lenient: normalised mean at or above this (4.2 on 1-5). */
  lenientMean: number;
  /** Weakly discriminating: normalised sample sd below this (0.4 points on 1-5). */
  weakSd: number;
  /** Drift: mean absolute change of the anchor scores, normalised, above this (0.6 points on 1-5). */
  drift: number;
  /** A quality change smaller than this is neither an improvement nor a regression. */
  minGain: number;
  /** Stop after this many rounds in a row without improvement. */
  patience: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { strictMean: 0.2, lenientMean: 0.8, weakSd: 0.1, drift: 0.15, minGain: 0.01, patience: 2 };

export interface SynthesisModels {
  generator: ChatModel;
  answerer: ChatModel;
  judge: ChatModel;
}

export type RoundDecision = 'accepted' | 'improved' | 'no-improvement' | 'rollback-regression' | 'rollback-drift';

/** Everything about one round, stored as artifact `synthesis-round`/`round-<nn>`. */
export interface RoundRecord {
  round: number;
  version: RubricVersion;
  /** What this round's version changed against the best version it was derived from. */
  changed: { metrics: string[]; prompt: boolean };
  questions: TestQuestion[];
  answers: string[];
  scores: CaseScores[];
  stats: MetricStats[];
  quality: number;
  anchorScores: CaseScores[];
  /** Mean absolute change of the anchor scores against the best version; 0 in the first round. */
  drift: number | null;
  decision: RoundDecision;
  /** The round of the best version after this round's decision. */
  best: number;
}
