export * from './types.js';
export { SynthesisError, CallCounter, askJson, literal } from './ask.js';
export { draftMetrics, checkMetrics, parseDimensions, fieldOf, MIN_METRICS, MAX_METRICS } from './metrics.js';
export { generateQuestions, answerQuestions, scoreCases, checkQuestions, formatOf, rubricText, initialGenerationPrompt } from './cases.js';
export { diagnose, quality, drift, lowestCases, evolveMetrics, evolvePrompt, checkRevisions } from './evolve.js';
export { scenarioYaml, type ScenarioYamlInput } from './yaml.js';
export { synthesize, ROUND_KIND, SYNTHESIS_KIND, type SynthesisOptions, type SynthesisResult } from './loop.js';
