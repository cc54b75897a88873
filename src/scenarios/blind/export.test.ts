import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { parseCsv } from '../csv.js';
import { asDialog } from '../judge/prompt.js';
import { loadStoredDialogues } from '../dialogue.js';
import { analysisRun, CLAUDE_TUTOR, GPT_TUTOR } from '../testing/analysis-run.js';
import { scenarioDir } from '../testing/fixtures.js';
import type { RubricColumn } from './columns.js';
import type { BlindExport, BlindKey } from './export.js';
import { labelStudioConfig, labelStudioTasks } from './labelstudio.js';
import { writeBlindExport } from './write.js';

/** Strings that would reveal the model behind a dialogue, or the dialogue's trial. */
function revealing(trialIds: string[]): string[] {
  return ['gpt', 'claude', 'openai', 'anthropic', 'tutor', 'j_openai', 'house-judge', ...trialIds];
}

async function setup() {
  const store = await openStore('sqlite::memory:');
  const runId = await analysisRun(store);
  const trialIds = (await store.listTrials(runId)).map(t => t.id);
  return { store, runId, trialIds, dir: scenarioDir({}) };
}

describe('blind export', () => {
  it('CSV: every judged dialogue with empty rubric columns, no model name or trial id, and a private key that maps back', async () => {
    const { store, runId, trialIds, dir } = await setup();
    const out = join(dir, 'blind.csv');
    const w = await writeBlindExport(store, runId, { format: 'csv', out, seed: 7 });
    expect(w).toMatchObject({ dialogues: 4, keyFile: `${out}.private-key.json`, companion: `${out}.rubric.md` });
    const text = readFileSync(out, 'utf8');
    for (const s of revealing(trialIds)) expect(text.toLowerCase(), s).not.toContain(s.toLowerCase());
    expect(readFileSync(w.companion, 'utf8')).toContain('- **a** (A; whole number from 0 to 10): How clear the explanation is.');

    const records = parseCsv(text);
    expect(records[0]!.fields).toEqual(['id', 'task', 'transcript', 'a', 'b', 'comment']);
    const rows = records.slice(1).map(r => r.fields);
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect(r[0]).toMatch(/^d-[0-9a-f]{10}$/);
      expect(r.slice(3)).toEqual(['', '', '']);
    }

    const key = JSON.parse(readFileSync(w.keyFile, 'utf8')) as BlindKey;
    expect(key).toMatchObject({ kind: 'paideia.blind-key.v1', runId, seed: 7, exportId: w.exportId, evaluation: { name: 'rubric' } });
    expect(key.items.map(i => i.id)).toEqual(rows.map(r => r[0]));
    // The key leads back to the dialogue each row shows and to its model.
    const dialogues = await loadStoredDialogues(store, runId);
    for (const [i, item] of key.items.entries()) {
      const d = dialogues.get(item.trialId)!;
      expect(rows[i]![2]).toBe(asDialog(d.messages));
      expect(item.spec).toBe(d.trial.modelSpec);
      expect(rows[i]![2]).toContain(item.spec === GPT_TUTOR ? 'Explanation one' : 'Explanation two');
    }
    expect(new Set(key.items.map(i => i.spec))).toEqual(new Set([GPT_TUTOR, CLAUDE_TUTOR]));
    // The key is also kept in the run, for import without the file.
    expect((await store.listArtifacts(runId, 'blind-export')).map(a => a.key)).toEqual([w.exportId]);
    await store.close();
  });

  it('shuffles deterministically by seed: the same seed gives the same bytes, other seeds other orders', async () => {
    const { store, runId, dir } = await setup();
    const order = async (seed: number, name: string) => {
      const w = await writeBlindExport(store, runId, { format: 'csv', out: join(dir, name), seed });
      return { text: readFileSync(w.out, 'utf8'), trials: (JSON.parse(readFileSync(w.keyFile, 'utf8')) as BlindKey).items.map(i => i.trialId) };
    };
    const a = await order(1, 'a.csv');
    const b = await order(1, 'b.csv');
    expect(b.text).toBe(a.text);
    const others = await Promise.all([2, 3, 4, 5, 6].map(s => order(s, `s${s}.csv`)));
    expect(others.some(o => o.trials.join() !== a.trials.join())).toBe(true);
    // Ids depend on the seed too, so two exports cannot be lined up by id.
    expect(others[0]!.text.slice(0, 60)).not.toBe(a.text.slice(0, 60));
    await store.close();
  });

  it('Label Studio: tasks in the import format and a labeling config with one control per rubric field', async () => {
    const { store, runId, trialIds, dir } = await setup();
    const out = join(dir, 'tasks.json');
    const w = await writeBlindExport(store, runId, { format: 'labelstudio', out, seed: 3 });
    expect(w.companion).toBe(join(dir, 'tasks.label-config.xml'));
    expect(existsSync(w.keyFile)).toBe(true);
    const text = readFileSync(out, 'utf8');
    for (const s of revealing(trialIds)) expect(text.toLowerCase(), s).not.toContain(s.toLowerCase());
    const tasks = JSON.parse(text) as Array<{ data: Record<string, string> }>;
    expect(tasks).toHaveLength(4);
    for (const t of tasks) expect(Object.keys(t).sort()).toEqual(['data']);
    expect(Object.keys(tasks[0]!.data).sort()).toEqual(['paideia_id', 'task', 'transcript']);
    const xml = readFileSync(w.companion, 'utf8');
    expect(xml).toContain('<Number name="a" toName="transcript" min="0" max="10" step="1" required="true"/>');
    expect(xml).toContain('<Number name="b" toName="transcript" min="0" max="10" step="1" required="true"/>');
    // Every $variable is a data key, every toName an object of the view.
    for (const [, v] of xml.matchAll(/value="\$(\w+)"/g)) expect(Object.keys(tasks[0]!.data)).toContain(v);
    const objects = [...xml.matchAll(/<Text name="(\w+)"/g)].map(m => m[1]);
    for (const [, to] of xml.matchAll(/toName="(\w+)"/g)) expect(objects).toContain(to);
    await store.close();
  });

  it('labeling config: Rating for whole numbers from 1, Number otherwise (bools 0/1, floats in 0.01 steps), descriptions escaped', () => {
    const col = (c: Partial<RubricColumn> & Pick<RubricColumn, 'column' | 'type' | 'min' | 'max'>): RubricColumn => ({ control: c.column.replace('.', '_'), path: c.column.split('.'), dimension: 'D', ...c });
    const columns = [
      col({ column: 'clarity', type: 'int', min: 1, max: 5, description: 'Use <b> & "quotes"' }),
      col({ column: 'respect', type: 'bool', min: 0, max: 1 }),
      col({ column: 'guidance.score', type: 'float', min: 0, max: 1 }),
      col({ column: 'steps', type: 'int', min: 0, max: 3 }),
    ];
    const x: BlindExport = { items: [{ id: 'd-1', task: 't', transcript: 'teacher: <hi>' }], columns, key: {} as BlindKey };
    const xml = labelStudioConfig(x);
    expect(xml).toContain('<Header value="clarity (D; whole number from 1 to 5): Use &lt;b&gt; &amp; &quot;quotes&quot;"/>');
    expect(xml).toContain('<Rating name="clarity" toName="transcript" maxRating="5" required="true"/>');
    expect(xml).toContain('<Number name="respect" toName="transcript" min="0" max="1" step="1" required="true"/>');
    expect(xml).toContain('<Number name="guidance_score" toName="transcript" min="0" max="1" step="0.01" required="true"/>');
    expect(xml).toContain('<Number name="steps" toName="transcript" min="0" max="3" step="1" required="true"/>');
    expect(xml).toContain('<TextArea name="comment" toName="transcript"');
    expect(JSON.parse(labelStudioTasks(x))).toEqual([{ data: { paideia_id: 'd-1', task: 't', transcript: 'teacher: <hi>' } }]);
  });
});
