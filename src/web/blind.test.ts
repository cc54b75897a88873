import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import { blindTaskView, createBlindTask, saveBlindScore } from './blind.js';

// The shipped scripted scenario, run for real into an in-memory store.
let store: Store;
let runId: string;
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  runId = (await startRun({ kind: 'scenario', file: 'scenarios/knowledge-explanation.yaml' }, { store }).done).runId;
});
afterAll(async () => { await store.close(); });

const secretOf = (path: string) => path.split('/').at(-1)!;

describe('blind scoring tasks', () => {
  it('open only with their own secret, name no model, and give each expert another order', async () => {
    const a = await createBlindTask(store, runId, 'anna.k');
    const b = await createBlindTask(store, runId, 'ben');
    expect(a.path).toMatch(new RegExp(`^/score/${runId}/[\\w-]{32}$`));
    const va = (await blindTaskView(store, runId, secretOf(a.path)))!;
    const vb = (await blindTaskView(store, runId, secretOf(b.path)))!;
    expect(va.rater).toBe('anna.k');
    expect(va.items).toHaveLength(16);
    // The same outputs (ids are per export), in another order.
    const text = (v: typeof va) => v.items.map(i => `${i.task}\n${i.transcript}`);
    expect(new Set(text(va))).toEqual(new Set(text(vb)));
    expect(text(va)).not.toEqual(text(vb));
    expect(JSON.stringify(va)).not.toMatch(/baseline:script|"teacher"|"model"/);
    expect(await blindTaskView(store, runId, `${secretOf(a.path)}x`)).toBeUndefined();
    await expect(createBlindTask(store, runId, 'not a name')).rejects.toThrow(/not a rater name/);
  });

  it('store scores as the expert\'s human scores, checked like a CSV import', async () => {
    const { path } = await createBlindTask(store, runId, 'cara');
    const view = (await blindTaskView(store, runId, secretOf(path)))!;
    const values = Object.fromEntries(view.columns.map(c => [c.column, String(c.max)]));
    await expect(saveBlindScore(store, runId, secretOf(path), { id: view.items[0]!.id, values: { ...values, [view.columns[0]!.column]: '9' } })).rejects.toThrow(/accuracy/);
    expect(await saveBlindScore(store, runId, secretOf(path), { id: view.items[0]!.id, values, comment: 'clear' })).toBe(true);
    expect(await saveBlindScore(store, runId, 'wrong', { id: view.items[0]!.id, values })).toBe(false);
    const scores = (await store.listScores(runId)).filter(s => s.scorer.name === 'human:cara');
    expect(scores).toHaveLength(1);
    expect(scores[0]!.value).toBeCloseTo(1, 12);
    const again = (await blindTaskView(store, runId, secretOf(path)))!;
    expect(again.scored).toEqual([view.items[0]!.id]);
    // what was saved comes back, as numbers on the rubric's scales, to be shown and changed
    expect(again.saved).toEqual({ [view.items[0]!.id]: { values: Object.fromEntries(view.columns.map(c => [c.column, c.type === 'bool' ? true : c.max])), comment: 'clear' } });
  });
});
