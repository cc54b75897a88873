/**
 * The built-in kinds of run, bound to the engine's startRun: what the CLI and the web app call.
 * It sits above the capability folders, which each contribute their kind.
 */
import type { RunKind } from './core/index.js';
import { startRunWith, type RunHandle, type StartOptions } from './engine/start.js';
import { scenarioRunKind, type ScenarioRunConfig } from './scenarios/run-kind.js';
import { suiteRunKind, type SuiteRunConfig } from './suites/run-kind.js';
import { learningRunKind, type LearningRunConfig } from './learning/run/run-kind.js';
import { studyRunKind, type StudyRunConfig } from './validity/study/run-kind.js';

export const BUILT_IN_RUN_KINDS: ReadonlyArray<RunKind> = [
  suiteRunKind as unknown as RunKind, scenarioRunKind as unknown as RunKind,
  studyRunKind as unknown as RunKind, learningRunKind as unknown as RunKind,
];

/** Any run Paideia knows, described by a config whose `kind` names it. */
export type RunConfig = SuiteRunConfig | ScenarioRunConfig | StudyRunConfig | LearningRunConfig;

/** Start a run of any built-in kind; see RunHandle for its events, its end and how to stop it. */
export function startRun(config: RunConfig, o: StartOptions): RunHandle {
  return startRunWith(BUILT_IN_RUN_KINDS, config, o);
}
