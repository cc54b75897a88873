export type { Label } from './labels.js';
export {
  cohenKappa, cohenKappaOfTable, fleissKappa, ratingsToTable,
  type CohenKappaResult, type FleissKappaResult, type KappaWeights,
} from './kappa.js';
export { krippendorffAlpha, type KrippendorffResult, type MeasurementLevel } from './krippendorff.js';
export { cronbachAlpha, icc, type CronbachAlphaResult, type IccForm, type IccResult, type IccType } from './icc.js';
