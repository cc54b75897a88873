import { bandOf, ITEM_SETS, type Unit } from './schema.js';
import { leaks, wordsOf } from './leak.js';

/** A problem the schema cannot see, at a dot-path of the unit. */
export interface UnitProblem {
  path: PropertyKey[];
  message: string;
}

/** The teaching content a generator sees: where no test answer may appear. */
export function teachingTexts(unit: Unit): Array<{ path: PropertyKey[]; text: string }> {
  return [
    { path: ['knowledge_point'], text: unit.knowledge_point },
    ...unit.rules.map((text, i) => ({ path: ['rules', i], text })),
    ...unit.exceptions.map((text, i) => ({ path: ['exceptions', i], text })),
    ...unit.terms.map((t, i) => ({ path: ['terms', i], text: `${t.term} ${t.definition}` })),
    ...unit.examples.flatMap((e, i) => [
      { path: ['examples', i, 'source'], text: e.source },
      { path: ['examples', i, 'target'], text: e.target },
      ...(e.note ? [{ path: ['examples', i, 'note'], text: e.note }] : []),
    ]),
    { path: ['transfer_design', 'near'], text: unit.transfer_design.near },
    { path: ['transfer_design', 'far'], text: unit.transfer_design.far },
    ...unit.visual_aids.map((a, i) => ({ path: ['visual_aids', i, 'description'], text: a.description })),
  ];
}

/** Every rule the schema cannot express, all reported at once. */
export function checkUnit(unit: Unit): UnitProblem[] {
  const problems: UnitProblem[] = [];
  if (unit.rules.length < 2 || unit.rules.length > 6) {
    problems.push({ path: ['rules'], message: `has ${unit.rules.length} rules; a unit needs 2-6 teachable rules (merge or split them)` });
  }
  const band = bandOf(unit.difficulty.rubric);
  if (band !== unit.difficulty.band) {
    problems.push({ path: ['difficulty', 'band'], message: `is "${unit.difficulty.band}" but the rubric scores total ${band === 'basic' ? 'a' : 'an'} "${band}" unit (4-6 basic, 7-9 intermediate, 10-12 advanced)` });
  }
  const seen = new Map<string, string>();
  const teaching = teachingTexts(unit);
  for (const set of ITEM_SETS) {
    unit[set].forEach((item, i) => {
      if (item.accepted && !item.accepted.includes(item.answer)) {
        problems.push({ path: [set, i, 'accepted'], message: `does not contain the answer "${item.answer}"; add it or fix the answer` });
      }
      const key = wordsOf(item.prompt).join(' ');
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        const what = set !== 'source_items' && earlier.startsWith('source_items') ? 'a transfer item that repeats source item' : 'repeats item';
        problems.push({ path: [set, i, 'prompt'], message: `${what} ${earlier}; transfer must use new material` });
      } else seen.set(key, `${set}.${i}`);
      for (const answer of [item.answer, ...(item.accepted ?? [])]) {
        const hit = teaching.find(t => leaks(answer, t.text));
        if (hit) {
          problems.push({ path: [set, i, 'answer'], message: `"${answer}" appears in ${hit.path.join('.')}, so the outline would give it away; choose another item or reword the teaching text` });
          break;
        }
      }
    });
  }
  return problems;
}
