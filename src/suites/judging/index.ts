// Explanations of the tutor test marked by two judges of different families (docs/tutor-benchmark.md).
export { RUBRIC_VERSION, rubricMessages, parseVerdict, referenceOf, type JudgeVerdict } from './rubric.js';
export {
  JUDGING_ARTIFACT, judgingConfig, judgeSpecs, loadJudgingConfig, saveJudgingConfig,
  type JudgeSetup, type JudgingConfig,
} from './config.js';
export {
  EXPLANATION_SCORER, EXPLANATION_SCORER_VERSION, JUDGED_TEST,
  type ExplanationStatus, type StoredJudgment, type JudgeOutcome,
} from './score.js';
export { scoreExplanations, type JudgingSummary } from './aggregate.js';
export { explanationJudgeStep, planJudgeTrials, EXPLANATION_JUDGE_STEP } from './judge-step.js';
