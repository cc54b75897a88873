export { markAnswer, markerRef, type LearnerResponse, type Mark, type MarkerRef } from './mark.js';
export { PHASES, PHASE_ITEMS, accuracy, cellsOf, gainOf, normalisedGainOf, type Cell, type MarkedAnswer, type Phase, type PhaseCount } from './cells.js';
export { overUnits, type Estimate, type UnitIntervalOptions } from './unit-bootstrap.js';
export { summariseOutcomes, type MacroMicro, type NegativeGain, type OutcomeSummary, type SummariseOptions } from './summary.js';
