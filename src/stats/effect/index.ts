export { cohensD, cohensDz } from './cohens-d.js';
export { oneWayAnova, type AnovaResult } from './one-way-anova.js';
