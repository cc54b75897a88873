import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type ConfigIssue } from '../../core/errors.js';
import { parseYamlSource } from '../../core/config/yaml-source.js';
import { zodIssues } from '../../core/config/zod-issues.js';
import { checkUnit } from './checks.js';
import { unitSchema, type Unit } from './schema.js';

export interface LoadedUnit {
  file: string;
  unit: Unit;
}

/** Parse and check one unit file; every problem comes back as an issue with its line. */
export function checkUnitText(file: string, text: string): { unit?: Unit; id?: { value: string; line?: number }; issues: ConfigIssue[] } {
  const parsed = parseYamlSource(file, text);
  if (!parsed.source) return { issues: parsed.issues };
  const source = parsed.source;
  // The id as written, even in a unit with other problems: a duplicate id is a problem of its own.
  const raw = (source.data as { id?: unknown } | null)?.id;
  const line = source.lineOf(['id']);
  const named = typeof raw === 'string' && raw !== '' ? { id: { value: raw, ...(line ? { line } : {}) } } : {};
  const result = unitSchema.safeParse(source.data);
  if (!result.success) return { ...named, issues: zodIssues(source, unitSchema, result.error.issues) };
  const issues = checkUnit(result.data).map(p => source.issue(p.path, p.message));
  return issues.length ? { ...named, issues } : { ...named, unit: result.data, issues };
}

/** The unit files under the given files or folders (`.yaml`/`.yml`, folders walked in sorted order). */
export function unitFiles(paths: ReadonlyArray<string>): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      throw new ConfigError([{ file: p, message: 'no such file or folder; pass a unit YAML file or a folder of them (default data/units)' }]);
    }
    if (!isDir) out.push(p);
    else for (const name of readdirSync(p).sort()) if (/\.ya?ml$/.test(name) || statSync(join(p, name)).isDirectory()) visit(join(p, name));
  };
  paths.forEach(visit);
  return out;
}

/** Check every file, then ids across files; returns the units and every issue found, never throws on content. */
export function checkUnits(paths: ReadonlyArray<string>): { units: LoadedUnit[]; issues: ConfigIssue[] } {
  const units: LoadedUnit[] = [];
  const issues: ConfigIssue[] = [];
  const byId = new Map<string, string>();
  for (const file of unitFiles(paths)) {
    const checked = checkUnitText(file, readFileSync(file, 'utf8'));
    issues.push(...checked.issues);
    if (!checked.id) continue;
    const other = byId.get(checked.id.value);
    if (other) {
      const { line } = checked.id;
      issues.push({ file, ...(line ? { line } : {}), field: 'id', message: `unit id "${checked.id.value}" is already used by ${other}; ids must be unique` });
      continue;
    }
    byId.set(checked.id.value, file);
    if (checked.unit) units.push({ file, unit: checked.unit });
  }
  return { units, issues };
}

/** Load units, throwing one ConfigError that lists every problem in every file. */
export function loadUnits(paths: ReadonlyArray<string>): LoadedUnit[] {
  const { units, issues } = checkUnits(paths);
  if (issues.length) throw new ConfigError(issues);
  return units;
}

export function findUnit(units: ReadonlyArray<LoadedUnit>, id: string): LoadedUnit {
  const hit = units.find(u => u.unit.id === id);
  if (!hit) throw new ConfigError([{ field: 'id', message: `no unit "${id}"; known: ${units.map(u => u.unit.id).join(', ') || '(none)'}` }]);
  return hit;
}
