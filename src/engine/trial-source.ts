import type { Trial } from '../core/index.js';

/**
 * The trials of a run in plan order, each made when the engine takes it. A list of trials is one;
 * a large suite run is another that holds a few typed columns instead of an object per trial, so
 * a run of 200,000 trials does not keep 200,000 trials alive while it calls (design.md: flat memory).
 */
export interface TrialSource {
  /** How many trials. */
  readonly size: number;
  /** The id of the trial at plan position `k` (0 <= k < size), without making the trial. */
  idAt(k: number): string;
  /** The trial at plan position `k`: a list's own object, or one made now (let go once it ran). */
  at(k: number): Trial;
  /** The position of a trial by its id (an index built on first use: only judges ask). */
  positionOf(id: string): number | undefined;
}

/** A source over trials already made (the kinds that plan a few thousand trials). */
export function trialList(trials: ReadonlyArray<Trial>): TrialSource {
  let positions: Map<string, number> | undefined;
  return {
    size: trials.length,
    idAt: k => trials[k]!.id,
    at: k => trials[k]!,
    positionOf(id) {
      positions ??= new Map(trials.map((t, k) => [t.id, k]));
      return positions.get(id);
    },
  };
}

/** One source after another: the second's trials follow the first's (a suite's judges follow its items). */
export function concatSources(first: TrialSource, second: TrialSource): TrialSource {
  if (second.size === 0) return first;
  const n = first.size;
  return {
    size: n + second.size,
    idAt: k => (k < n ? first.idAt(k) : second.idAt(k - n)),
    at: k => (k < n ? first.at(k) : second.at(k - n)),
    positionOf(id) {
      const k = first.positionOf(id);
      if (k !== undefined) return k;
      const j = second.positionOf(id);
      return j === undefined ? undefined : n + j;
    },
  };
}

/** The trials of a source, or a list as given (a caller with its trials in hand). */
export function asTrialSource(trials: TrialSource | ReadonlyArray<Trial>): TrialSource {
  return isList(trials) ? trialList(trials) : trials;
}

function isList(trials: TrialSource | ReadonlyArray<Trial>): trials is ReadonlyArray<Trial> {
  return Array.isArray(trials);
}
