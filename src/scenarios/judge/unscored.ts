import type { Judgment } from '../../core/index.js';

/** Why judgments went unscored, most frequent first: what a user fixes (a judge model, its format mode). */
export interface UnscoredReason {
  reason: string;
  count: number;
}

/** Reasons longer than this are cut: a judge's whole answer can be the reason. */
const REASON_CHARS = 160;

/** The reasons of the unscored judgments among `judgments`, counted, the `most` most frequent. */
export function unscoredReasons(judgments: Iterable<Judgment>, most = 5): UnscoredReason[] {
  const counts = new Map<string, number>();
  for (const j of judgments) {
    if (j.details?.unscored !== true) continue;
    const text = (j.reason ?? 'no reason stored').replace(/\s+/g, ' ').trim();
    const reason = text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0)).slice(0, most);
}
