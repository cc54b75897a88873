import { meanPerUnit, type Prepared } from '../prepare.js';
import type { ResampleOptions, TauSummary, PearsonSummary } from './tau.js';
import { alignSeries } from './alignment.js';

/** A real-world reference on the same axes as the raters: the experts themselves, or a user's column. */
export interface BaselineRow {
  name: string;
  kind: 'experts' | 'observation-column' | 'unit-column';
  item: string;
  /** Null for the experts (they are the x axis). */
  tauExperts: TauSummary | null;
  tauOutcome: TauSummary | null;
  pearsonExperts: PearsonSummary | null;
  pearsonOutcome: PearsonSummary | null;
}

/** Per item: the experts' mean against the outcome, and every numeric extra column against both. */
export function baselines(p: Prepared, o: ResampleOptions): BaselineRow[] {
  const rows: BaselineRow[] = [];
  for (const item of p.items) {
    const experts = p.expertMean.get(item);
    if (experts) {
      const a = alignSeries(p, item, experts.byObservation, experts.byUnit, `baseline|experts|${item}`, o);
      rows.push({ name: 'experts', kind: 'experts', item, ...a, tauExperts: null, pearsonExperts: null });
    }
    for (const b of p.table.baselines) {
      const byObservation = Float64Array.from(p.observations, (obs, i) =>
        b.level === 'observation' ? b.values.get(obs) ?? NaN : b.values.get(p.units[p.unitOfObservation[i]!]!) ?? NaN);
      // A unit-level baseline is the unit's own value, not a mean over its observations.
      const byUnit = b.level === 'unit'
        ? Float64Array.from(p.units, u => b.values.get(u) ?? NaN)
        : meanPerUnit(byObservation, p.unitOfObservation, p.units.length);
      const a = alignSeries(p, item, byObservation, byUnit, `baseline|${b.name}|${item}`, o);
      rows.push({ name: b.name, kind: b.level === 'unit' ? 'unit-column' : 'observation-column', item, ...a });
    }
  }
  return rows;
}
