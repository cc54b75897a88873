export {
  varianceComponents,
  type VarianceComponent, type VarianceComponentsOptions, type VarianceComponentsResult,
} from './variance-components.js';
export { dStudy, mainEffectBlups, type DStudyOptions, type DStudyResult, type MainEffectBlup } from './dstudy.js';
export type { Level } from './design.js';
export { crossedComponents, type CrossedComponents } from './crossed.js';
