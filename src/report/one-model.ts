import { ConfigError } from '../core/index.js';
import type { ReportData } from './data.js';

/**
 * The report of one model: its scores, groups (evidence label among them), failure examples (public
 * items only, as in the full report) and failed trials, and the comparisons it takes part in. The
 * other models appear only as the other side of those comparisons.
 */
export function onlyModel(d: ReportData, alias: string): ReportData {
  const model = d.models.find(m => m.alias === alias);
  if (!model) throw new ConfigError([{ field: '--model', message: `run ${d.runId} has no model "${alias}"; its models are ${d.models.map(m => m.alias).join(', ')}` }]);
  const mine = <T extends { model: string }>(xs: T[]) => xs.filter(x => x.model === alias);
  const x = d.explanations;
  return {
    ...d,
    models: [model],
    cells: mine(d.cells),
    groups: mine(d.groups),
    failures: mine(d.failures),
    trialFailures: mine(d.trialFailures),
    unpriced: d.unpriced.filter(s => s === model.spec || (x?.judges ?? []).some(j => j.spec === s)),
    explanations: x && { ...x, cells: mine(x.cells), agreementByModel: mine(x.agreementByModel), examples: mine(x.examples) },
    comparisons: d.comparisons.filter(c => c.a === alias || c.b === alias),
    rows: d.rows.filter(r => d.cells.some(c => c.model === alias && c.test === r.test && c.language === r.language)),
    tests: d.tests.filter(t => d.cells.some(c => c.model === alias && c.test === t.name)),
  };
}
