import { contentHash, type Trial } from '../../core/index.js';
import { studyHash, type Study } from './load.js';
import { PROMPTS_VERSION } from './prompts.js';
import { RATING_STEP } from './step.js';

/** Run kind of rating studies. */
export const STUDY_RUN = 'validity';

/**
 * The run id is the hash of what the study asks (its observations, items, families, raters and
 * their endpoints, repeats, seed), so running the same study again resumes the same run.
 */
export function studyRunId(study: Study, endpoints: Readonly<Record<string, string>>): string {
  return `val-${contentHash({ study: studyHash(study), raters: study.raters.map(r => ({ alias: r.alias, spec: r.spec, endpoint: endpoints[r.alias] ?? null })), prompts: PROMPTS_VERSION })}`;
}

/** Cells = observation x item x family x rater x repeat, in that order; each a trial of one rating step. */
export function planStudyTrials(study: Study, runId: string): Trial[] {
  const trials: Trial[] = [];
  for (const observation of study.observations) {
    const obsHash = contentHash(observation);
    for (const item of study.items) {
      const promptVersion = contentHash({ prompts: PROMPTS_VERSION, item });
      for (const family of study.families) {
        for (const rater of study.raters) {
          for (let repeat = 0; repeat < study.repeats; repeat++) {
            trials.push({
              id: contentHash({ runId, observation: obsHash, item: item.id, promptVersion, family, rater: rater.spec, alias: rater.alias, repeat, seed: study.seed }),
              runId, index: trials.length, itemId: observation.id, itemHash: obsHash, test: `validity:${item.id}`,
              modelAlias: rater.alias, modelSpec: rater.spec, promptVersion, repeat, seed: study.seed, kind: RATING_STEP, variant: family,
            });
          }
        }
      }
    }
  }
  return trials;
}
