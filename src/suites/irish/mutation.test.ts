import { describe, expect, it } from 'vitest';
import { lenitePast, matchCase, readings } from './mutation.js';

const stems = (w: string) => readings(w).map(r => [r.stem, r.mutation]);

describe('readings', () => {
  it('offers the unmutated reading first, then lenition and prefixes', () => {
    expect(readings('sráide').map(r => r.stem)).toEqual(['sráide']);
    expect(stems('bhróige')).toEqual([['bhróige', 'none'], ['bróige', 'lenition']]);
    expect(readings('bhfaca').map(r => r.stem)).toEqual(['bhfaca', 'bfaca', 'faca']);
    expect(readings('ndearna').map(r => r.stem)).toContain('dearna');
    expect(readings('gcat').map(r => r.stem)).toContain('cat');
    expect(readings('n-athair').map(r => r.stem)).toContain('athair');
    expect(readings('nAthair').map(r => r.stem)).toContain('Athair');
    expect(readings('tsaol').map(r => r.stem)).toContain('saol');
    expect(readings('t-uisce').map(r => r.stem)).toContain('uisce');
    expect(readings('hoibre').map(r => r.stem)).toContain('oibre');
    expect(readings("d'fhág").map(r => r.stem)).toContain('fág');
  });

  it('puts the same mutation back on another stem', () => {
    const len = readings('bhróige').find(r => r.mutation === 'lenition')!;
    expect(len.apply('bróg')).toBe('bhróg');
    const ecl = readings('tsaol').find(r => r.stem === 'saol')!;
    expect(ecl.apply('saoil')).toBe('tsaoil');
  });
});

describe('lenitePast and matchCase', () => {
  it('lenites as the independent past does', () => {
    expect(['bí', 'conaic', 'cuaigh', 'rinne', 'ól', 'fág', 'scríobh', 'seas', 'tá'].map(lenitePast)).toEqual([
      'bhí', 'chonaic', 'chuaigh', 'rinne', "d'ól", "d'fhág", 'scríobh', 'sheas', 'thá',
    ]);
  });

  it('copies a capital first letter and never lowers one', () => {
    expect(matchCase('Spáinnise', 'spáinnis')).toBe('Spáinnis');
    expect(matchCase('dé', 'Dia')).toBe('Dia');
    expect(matchCase('dé', 'dia')).toBe('dia');
  });
});
