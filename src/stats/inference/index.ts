export { StatsInputError, type NumericArray } from './errors.js';
export {
  bootstrapCI, pairedBootstrap, quantileSorted,
  type BootstrapMethod, type BootstrapOptions, type BootstrapResult, type PairedBootstrapResult,
  type PairedStatistic, type SampleStatistic, type SeededIntervalOptions,
} from './bootstrap.js';
export { compareModels, type CompareModelsOptions, type ComparedModel, type ModelComparison } from './compare-models.js';
export { meanInterval, type MeanInterval, type MeanIntervalOptions } from './mean-interval.js';
export { pairedTTest, welchTTest, type TTestResult } from './ttest.js';
export { wilsonInterval, type ProportionInterval } from './wilson.js';
export { clopperPearsonInterval } from './clopper-pearson.js';
export {
  fCdf, fQuantile, fSf, normalCdf, normalQuantile, normalSf, studentTCdf, studentTQuantile, studentTTwoSided,
} from './distributions.js';
export { betaInc, betaIncInv, erfc, logBeta, logGamma } from './special.js';
