import { describe, expect, it } from 'vitest';
import { elmesMean, numericFields, numericValue, resolveFormat } from './fields.js';

describe('ELMES format fields', () => {
  it('a field without a type is a float score; evaluation.scale fills only numbers without their own', () => {
    const format = resolveFormat([
      { field: 'Knowledge accuracy' }, { field: 'depth', type: 'int', max: 10 }, { field: 'note', type: 'str' },
      { field: 'guidance', type: 'dict', items: [{ field: 'score', type: 'int' }, { field: 'reason', type: 'str' }] },
    ], { min: 1, max: 5 });
    expect(format.map(f => [f.field, f.type, f.scale])).toEqual([
      ['Knowledge accuracy', 'float', { min: 1, max: 5 }], ['depth', 'int', undefined], ['note', 'str', undefined], ['guidance', 'dict', undefined],
    ]);
    expect(format[3]!.items![0]!.scale).toEqual({ min: 1, max: 5 });
    expect(numericFields(format).map(f => [f.path.join('.'), f.scaled])).toEqual([['Knowledge accuracy', true], ['depth', true], ['guidance.score', true]]);
    expect(numericFields(resolveFormat([{ field: 'a', type: 'int' }, { field: 'b', type: 'bool' }])).map(f => f.scaled)).toEqual([false, true]);
  });

  it('ELMES\'s overall is the plain mean of the numeric values (bool as 1/0), undefined when one is missing', () => {
    const numeric = numericFields(resolveFormat([{ field: 'a', type: 'int' }, { field: 'b', type: 'float' }, { field: 'ok', type: 'bool' }]));
    expect(elmesMean(new Map([['a', 8], ['b', 6.5], ['ok', numericValue(true)!]]), numeric)).toBeCloseTo((8 + 6.5 + 1) / 3, 12);
    expect(elmesMean(new Map([['a', 8]]), numeric)).toBeUndefined();
    expect(elmesMean(new Map(), [])).toBeUndefined();
    expect(numericValue('7')).toBeUndefined();
  });
});
