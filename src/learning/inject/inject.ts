import { PaideiaError } from '../../core/errors.js';
import type { Unit } from '../units/index.js';
import { leakAnswers } from './integrity.js';
import { swapRule } from './knowledge.js';
import { removeExamples, scrambleSlides } from './pedagogy.js';
import type { InjectedDeck, InjectionFamily, InjectionKind } from './types.js';
import { flattenTables, removeColour } from './visual.js';

type UnitParts = Pick<Unit, 'rules' | 'examples' | 'near_transfer' | 'far_transfer'>;

/** Each transform's family and what it needs, declared so callers never switch on kinds. */
export const INJECTIONS: Readonly<Record<InjectionKind, { family: InjectionFamily; needsUnit: boolean; apply: (html: string, unit: UnitParts | undefined, seed: number) => InjectedDeck }>> = {
  'rule-swap': { family: 'knowledge', needsUnit: true, apply: (h, u, s) => swapRule(h, u!, s) },
  'examples-removed': { family: 'pedagogy', needsUnit: true, apply: (h, u, s) => removeExamples(h, u!, s) },
  'order-scrambled': { family: 'pedagogy', needsUnit: false, apply: (h, _u, s) => scrambleSlides(h, s) },
  'tables-flattened': { family: 'visual', needsUnit: false, apply: (h, _u, s) => flattenTables(h, s) },
  'colour-removed': { family: 'visual', needsUnit: false, apply: (h, _u, s) => removeColour(h, s) },
  'answers-leaked': { family: 'integrity', needsUnit: true, apply: (h, u, s) => leakAnswers(h, u!, s) },
};

/**
 * One corrupted variant of a sanitised deck: the same deck, kind and seed give the same HTML and
 * the same record of changes. Transforms that read the unit (its rules, examples, transfer items) need it.
 */
export function injectError(kind: InjectionKind, html: string, o: { unit?: UnitParts; seed: number }): InjectedDeck {
  const injection = INJECTIONS[kind];
  if (!injection) throw new PaideiaError(`no error injection "${String(kind)}"; known: ${Object.keys(INJECTIONS).join(', ')}`);
  if (injection.needsUnit && !o.unit) throw new PaideiaError(`error injection "${kind}" needs the deck's unit (its rules, examples and transfer items)`);
  return injection.apply(html, o.unit, o.seed);
}
