import { resolve } from 'node:path';
import type { RunKind } from '../../core/index.js';
import { LEARNING_RUN, LearningRunConfigSchema, type LearningRunSettings } from './config.js';

export { LearningRunConfigSchema, type LearningRunConfig } from './config.js';

/**
 * Learning studies as a kind of run. Rendering and sanitising pull in Chromium and jsdom, so the
 * run itself is loaded only when one starts: every other command starts without them.
 */
export const learningRunKind: RunKind<LearningRunSettings> = {
  specVersion: 'paideia.run-kind.v1',
  name: LEARNING_RUN,
  configSchema: LearningRunConfigSchema as unknown as RunKind<LearningRunSettings>['configSchema'],
  start: async (config, context) => (await import('./run.js')).runLearningStudy(config, context),
  // Unit paths absolute; the price table is the one stored with the run.
  resumeConfig: (c, runId) => ({ ...c, resume: runId, ...(c.unitPaths ? { unitPaths: c.unitPaths.map(p => resolve(p)) } : {}), prices: undefined }),
};
