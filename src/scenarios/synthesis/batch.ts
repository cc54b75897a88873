import { ConfigError } from '../../core/errors.js';
import type { Store } from '../../core/store.js';
import type { SynthesisConfig } from './loop.js';
import { runSynthesis, type SynthesisCell } from './run.js';
import type { SynthesisModels } from './types.js';

/** The grid of a batch synthesis (the Elmes+ Edu-330: scenario types x subjects x grade bands). */
export interface SynthesisGrid {
  types: string[];
  subjects: string[];
  grades: string[];
}

/** One cell of the index: where its scenario is and which indicators it measures. */
export interface BatchCell {
  id: string;
  type: string;
  subject: string;
  grade: string;
  status: 'done' | 'failed' | 'pending';
  /** The runnable scenario written for the cell (relative to the index), when done. */
  file?: string;
  bestRound?: number;
  /** The second-level indicators of the best round: the rubric's metrics. */
  indicators?: Array<{ name: string; field: string; dimension: string; weight: number }>;
  /** Why it failed: the step and the problems, as a synthesis says them. */
  problem?: string;
}

const PLACEHOLDERS = ['{type}', '{subject}', '{grade}'] as const;

/** A cell id usable as a file name: `socratic-tutoring--maths--grade-7`. */
export function cellId(type: string, subject: string, grade: string): string {
  const slug = (s: string) => s.normalize('NFKD').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'x';
  return [type, subject, grade].map(slug).join('--');
}

/**
 * The cells of a grid: the description template with `{type}`, `{subject}` and `{grade}` filled
 * in, each cell its own synthesis (same models and settings) named after its id.
 */
export function gridCells(grid: SynthesisGrid, template: string, base: Omit<SynthesisConfig, 'description' | 'name'>): Array<SynthesisCell & { type: string; subject: string; grade: string }> {
  const missing = PLACEHOLDERS.filter(p => !template.includes(p));
  if (missing.length) throw new ConfigError([{ field: '--description', message: `a batch description is a template naming the cell: it lacks ${missing.join(', ')} (e.g. "A {type} lesson in {subject} for {grade}")` }]);
  const cells: Array<SynthesisCell & { type: string; subject: string; grade: string }> = [];
  const seen = new Set<string>();
  for (const type of grid.types) for (const subject of grid.subjects) for (const grade of grid.grades) {
    const id = cellId(type, subject, grade);
    if (seen.has(id)) throw new ConfigError([{ field: '--types', message: `two cells would share the id ${id}; give the grid distinct names` }]);
    seen.add(id);
    const description = template.replaceAll('{type}', type).replaceAll('{subject}', subject).replaceAll('{grade}', grade);
    cells.push({ id, type, subject, grade, header: `Synthesised by paideia scenario synthesize-batch, cell ${id}`, config: { ...base, description, name: id.replace(/-/g, '_') } });
  }
  return cells;
}

/**
 * Batch synthesis: one synthesis per grid cell, all trials of one engine run (stored call by call,
 * resumed by the same command, cells run `concurrency` at a time). Returns each cell's scenario
 * YAML (done cells) and the index of their indicators.
 */
export async function batchSynthesis(o: {
  store: Store; models: SynthesisModels; grid: SynthesisGrid; template: string; base: Omit<SynthesisConfig, 'description' | 'name'>;
  concurrency?: number; signal?: AbortSignal;
}): Promise<{ runId: string; cells: BatchCell[]; yaml: Map<string, string> }> {
  const cells = gridCells(o.grid, o.template, o.base);
  const done = await runSynthesis({ store: o.store, models: o.models, specs: o.base.specs, cells, ...(o.concurrency ? { concurrency: o.concurrency } : {}), ...(o.signal ? { signal: o.signal } : {}) });
  const yaml = new Map<string, string>();
  const index: BatchCell[] = cells.map(c => {
    const out = done.outcomes.get(c.id)!;
    const base = { id: c.id, type: c.type, subject: c.subject, grade: c.grade };
    if (out.failure) return { ...base, status: 'failed', problem: `${out.failure.step}: ${out.failure.problems.join('; ')}` };
    if (!out.result) return { ...base, status: 'pending' };
    yaml.set(c.id, out.result.yaml);
    const best = out.rounds.find(r => r.round === out.result!.best)!;
    return {
      ...base, status: 'done', file: `${c.id}.yaml`, bestRound: best.round,
      indicators: best.version.metrics.map(m => ({ name: m.name, field: m.field, dimension: m.dimension, weight: m.weight })),
    };
  });
  return { runId: done.runId, cells: index, yaml };
}
