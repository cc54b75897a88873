import type { ScenarioRunSummary } from '../scenarios/index.js';

/** What a session of a scenario run did, as its last line says it: dialogues, then judgments. */
export function scenarioCounts(summary: ScenarioRunSummary): string {
  const j = summary.judging;
  return `${summary.ended} ended, ${summary.capped} capped, ${summary.failed} failed, ${summary.pending} pending dialogue(s)`
    + (j ? `; judgments: ${j.new} new, ${j.stored} stored, ${j.unscored} unscored, ${j.failed} failed, ${j.pending} pending`
      : summary.judgmentsPending || summary.judgmentsFailed
        ? `; ${summary.judgmentsPending} judgment(s) still to make${summary.judgmentsFailed ? `, ${summary.judgmentsFailed} failed` : ''}` : '');
}
