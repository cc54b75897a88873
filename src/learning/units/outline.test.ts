import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadUnits } from './load.js';
import { buildOutline } from './outline.js';
import { outlineMarkdown } from './outline-markdown.js';
import { leaks } from './leak.js';
import { ITEM_SETS, type Unit } from './schema.js';

const SHIPPED = fileURLToPath(new URL('../../../data/units', import.meta.url));
const units = loadUnits([SHIPPED]).map(u => u.unit);

/** Every string a test could be marked against: answers, accepted answers and the prompts themselves. */
function secrets(unit: Unit): string[] {
  return ITEM_SETS.flatMap(set => unit[set].flatMap(i => [i.answer, ...(i.accepted ?? []), i.prompt]));
}

describe('course outline', () => {
  it('ships at least 12 valid units over every band and several task types', () => {
    expect(units.length).toBeGreaterThanOrEqual(12);
    expect(new Set(units.map(u => u.difficulty.band))).toEqual(new Set(['basic', 'intermediate', 'advanced']));
    expect(new Set(units.map(u => u.task_type)).size).toBeGreaterThanOrEqual(4);
    for (const u of units) expect(u.checking.human_checked, u.id).toBe(true);
  });

  it('never carries a test item, an answer or an accepted answer, in JSON or Markdown', () => {
    let checked = 0;
    for (const unit of units) {
      const outline = buildOutline(unit);
      for (const text of [JSON.stringify(outline), outlineMarkdown(outline)]) {
        for (const secret of secrets(unit)) {
          expect(leaks(secret, text), `${unit.id}: "${secret}" reached the outline`).toBe(false);
          expect(text.toLowerCase().includes(secret.toLowerCase()) && secret.includes(' '), `${unit.id}: "${secret}"`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('the leak check catches an answer that an outline would carry', () => {
    const unit = units[0]!;
    // An outline builder that forgot to withhold the items must be caught by the same check.
    const careless = JSON.stringify({ ...buildOutline(unit), items: unit.far_transfer });
    expect(secrets(unit).some(s => leaks(s, careless))).toBe(true);
  });

  it('describes the transfer design by counts and words, and carries the teaching content', () => {
    const unit = units.find(u => u.id === 'chickasaw-case-and-person')!;
    const o = buildOutline(unit);
    expect(o.transferDesign).toEqual({
      sourceItems: unit.source_items.length,
      near: { items: unit.near_transfer.length, description: unit.transfer_design.near },
      far: { items: unit.far_transfer.length, description: unit.transfer_design.far },
    });
    expect(o.requiredContent.rules).toEqual(unit.rules);
    expect(o.objectives).toHaveLength(unit.rules.length + 2);
    const md = outlineMarkdown(o);
    for (const e of unit.examples) expect(md).toContain(`| ${e.source} | ${e.target} |`);
    expect(md).toContain('## Requested visual aids\n- table: noun endings');
  });
});
