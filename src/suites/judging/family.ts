import { modelFamily as familyFromTable } from '../../providers/family.js';

/**
 * Families for the judging stage: a judge never marks a model of its own family. The table is
 * src/providers/family.ts (documented in docs/tutor-benchmark.md); `--judge-family alias=family`
 * overrides it for any alias.
 */
export function modelFamily(spec: string): string {
  return familyFromTable(spec).family;
}

/** The family of a model in a run: an override by alias wins over the table. */
export function familyOf(model: { alias: string; spec: string }, overrides: Readonly<Record<string, string>>): string {
  return overrides[model.alias] ?? modelFamily(model.spec);
}
