// paideia/metrics: text metrics that score stored answers (no model calls, no runtime dependencies).
export {
  chrF,
  corpusChrF,
  chrFSegmentStats,
  corpusChrFSegmentStats,
  chrFFromStats,
  chrFFromCounts,
  chrFName,
  chrFSignature,
  resolveChrFOptions,
  SACREBLEU_VERSION,
  type ChrFOptions,
  type ResolvedChrFOptions,
  type ChrFSegmentStats,
  type ChrFResult,
} from './chrf.js';
export { MetricInputError } from './errors.js';
export {
  normalizeAnswer,
  matchesAccepted,
  resolveNormalizeOptions,
  DEFAULT_NORMALIZE_OPTIONS,
  type NormalizeOptions,
  type AcceptedMatch,
} from './normalize.js';
export { editDiff, tokenize, type EditDiff, type EditChange, type EditDiffOptions, type Token } from './edit-diff.js';
export { sameEdit, type SameEditOptions, type SameEditResult, type SameEditCode } from './same-edit.js';
export { finalAnswerText, stripReasoning } from './reasoning.js';
