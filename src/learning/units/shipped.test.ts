import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadUnits } from './load.js';

interface Puzzle { id: string; examples: Array<{ src: string; tgt: string }> }
const puzzles = new Map(readFileSync(new URL('../../../data/sources/puzzling-machines/puzzles.jsonl', import.meta.url), 'utf8')
  .trim().split('\n').map(line => JSON.parse(line) as Puzzle).map(p => [p.id, p]));
const units = loadUnits([fileURLToPath(new URL('../../../data/units', import.meta.url))]).map(u => u.unit);
// The units add or drop a final full stop; the words must be the puzzle's own.
const bare = (s: string) => s.normalize('NFC').trim().replace(/[.!?]$/, '');

describe('shipped units and their puzzles', () => {
  it('every unit names a puzzle shipped in data/sources, and every teaching example is one of its examples', () => {
    for (const unit of units) {
      const puzzle = puzzles.get(unit.provenance.puzzle);
      expect(puzzle, `${unit.id}: ${unit.provenance.puzzle}`).toBeDefined();
      const sources = new Set(puzzle!.examples.map(e => bare(e.src)));
      for (const e of unit.examples) expect(sources.has(bare(e.source)), `${unit.id}: ${e.source}`).toBe(true);
      expect(unit.provenance.licence).toBe('CC BY 1.0');
      expect(unit.provenance.credit).toMatch(/International Linguistics Olympiad/);
    }
    expect(new Set(units.map(u => u.provenance.puzzle)).size).toBe(puzzles.size);
  });

  it('source items come from puzzle examples kept out of the teaching examples', () => {
    for (const unit of units) {
      const puzzle = puzzles.get(unit.provenance.puzzle)!;
      const shown = new Set(unit.examples.map(e => bare(e.source)));
      for (const item of unit.source_items) {
        // A matching item may ask about several examples at once; each it asks about must be held back.
        const asked = puzzle.examples.map(e => bare(e.src)).filter(src => item.prompt.normalize('NFC').includes(src) && src.length > 3 && !shown.has(src));
        expect(asked.length, `${unit.id}: ${item.prompt}`).toBeGreaterThan(0);
      }
    }
  });
});
