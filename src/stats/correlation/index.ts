export { CorrelationInputError, type CorrelationInputProblem } from './errors.js';
export { kendallTauB, kendallTauC, type KendallResult } from './kendall.js';
export { spearman, type SpearmanResult } from './spearman.js';
export { pearson, type PearsonResult } from './pearson.js';
export {
  distanceCorrelationSq,
  distanceCovarianceSq,
  FAST_DCOR_THRESHOLD,
  type DistanceCorrelationResult,
  type DistanceCovarianceResult,
  type DistanceOptions,
  type DistanceSample,
} from './dcor.js';
export { theilSen, type TheilSenOptions, type TheilSenResult } from './theil-sen.js';
export { siegel, type SiegelOptions, type SiegelResult } from './siegel.js';
export { tauBResampler, type TauBResampler } from './kendall-resampler.js';
