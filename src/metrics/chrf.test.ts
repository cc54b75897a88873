import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MetricInputError, chrF, chrFFromStats, chrFSegmentStats, chrFSignature, corpusChrF, corpusChrFSegmentStats,
  type ChrFOptions,
} from './index.js';

interface Params {
  char_order: number; word_order: number; beta: number; whitespace: boolean; eps_smoothing: boolean; lowercase: boolean;
}
interface Vector {
  group?: string;
  level: 'sentence' | 'corpus';
  hypothesis?: string;
  references?: string[];
  hypotheses?: string[];
  references_streams?: string[][];
  params: Params;
  signature?: string;
  expected: number;
  tolerance?: number;
}

const file = JSON.parse(readFileSync(new URL('../../test/conformance/chrf.json', import.meta.url), 'utf8')) as {
  upstream_test_vectors: Vector[];
  computed_chrfpp_vectors: Vector[];
};

const options = (p: Params): ChrFOptions => ({
  charOrder: p.char_order, wordOrder: p.word_order, beta: p.beta,
  whitespace: p.whitespace, epsSmoothing: p.eps_smoothing, lowercase: p.lowercase,
});

function score(v: Vector) {
  return v.level === 'sentence' ? chrF(v.hypothesis!, v.references!, options(v.params)) : corpusChrF(v.hypotheses!, v.references_streams!, options(v.params));
}

const label = (v: Vector, i: number) =>
  `#${i} ${v.level} ${JSON.stringify(v.hypothesis ?? v.hypotheses).slice(0, 60)} nc${v.params.char_order} nw${v.params.word_order} b${v.params.beta} ${v.params.eps_smoothing ? 'eps' : 'eff'}${v.params.whitespace ? ' ws' : ''}${v.params.lowercase ? ' lc' : ''}`;

describe('chrF conformance: sacrebleu 2.6.0 unit-test vectors (tolerance as stated in the file)', () => {
  file.upstream_test_vectors.forEach((v, i) => {
    it(`${v.group}: ${label(v, i)}`, () => {
      expect(Math.abs(score(v).score - v.expected)).toBeLessThanOrEqual(v.tolerance ?? 1e-9);
    });
  });
});

describe('chrF conformance: chrF/chrF++ vectors computed with unmodified sacrebleu 2.6.0', () => {
  file.computed_chrfpp_vectors.forEach((v, i) => {
    it(label(v, i), () => {
      const r = score(v);
      expect(Math.abs(r.score - v.expected)).toBeLessThanOrEqual(v.tolerance ?? 1e-9);
      // sacrebleu prints `name|signature = score`; our signature is that `name|signature` part.
      expect(r.signature).toBe(`${r.name}|${v.signature}`);
    });
  });
});

describe('chrF signature and result shape', () => {
  it('spells chrF++ the way sacrebleu 2.6.0 does', () => {
    expect(chrF('Is maith liom tae.', ['Is maith liom tae.'], { wordOrder: 2 }).signature).toBe(
      'chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0',
    );
    expect(chrFSignature({ beta: 3, epsSmoothing: true, whitespace: true, lowercase: true }, 'var')).toBe(
      'chrF3|nrefs:var|case:lc|eff:no|nc:6|nw:0|space:yes|version:2.6.0',
    );
  });

  it('records that Paideia produced the score', () => {
    const r = chrF('a', ['a']);
    expect(r.producedBy).toBe('paideia');
    expect(r.name).toBe('chrF2');
    expect(r.counts).toHaveLength(18);
  });
});

describe('chrF edge cases that the conformance file does not pin', () => {
  it('counts code points, not UTF-16 units, outside the BMP', () => {
    // Two different emoji share their high surrogate: counting units would find a match.
    expect(chrF('😀', ['😁']).score).toBe(0);
    // Orders 1-3 are effective: precision = recall = (2/3 + 1/2 + 0) / 3 = 7/18.
    expect(chrF('a😀b', ['a😀c']).score).toBeCloseTo(700 / 18, 12);
  });

  it('removes exactly the whitespace Python str.split() removes', () => {
    // U+001C is Python whitespace (JS \s disagrees); U+FEFF is not (JS \s disagrees again).
    expect(chrF('a\u001Cb', ['ab']).score).toBe(100);
    // hyp a,\uFEFF,b vs ref ab: order 1 p=2/3 r=1, order 2 p=0 r=0; F2 = 5 * (1/3 * 1/2) / (4/3 + 1/2).
    expect(chrF('a\uFEFFb', ['ab']).score).toBeCloseTo((100 * 5 * (1 / 6)) / (4 / 3 + 1 / 2), 12);
  });

  it('scores an empty or all-whitespace hypothesis 0 and ignores empty references', () => {
    expect(chrF('', ['Tá sé fuar.'], { wordOrder: 2 }).score).toBe(0);
    expect(chrF(' \t\n', ['Tá sé fuar.'], { wordOrder: 2 }).score).toBe(0);
    const r = chrF('Tá sé fuar.', ['', 'Tá sé fuar.'], { wordOrder: 2 });
    expect(r.score).toBe(100);
    expect(r.nrefs).toBe(1);
  });

  it('refuses a segment with no non-empty reference, naming it', () => {
    expect(() => chrF('x', [''])).toThrow(MetricInputError);
    expect(() => corpusChrF(['a', 'b'], [['a', '']])).toThrow(/segment 1/);
    expect(() => corpusChrF(['a', 'b'], [['a']])).toThrow(/1 segments but there are 2 hypotheses/);
  });

  it('keeps the best reference per segment, the first one on a tie', () => {
    const o = { charOrder: 3, wordOrder: 2 };
    const best = chrFSegmentStats('Bhí an lá go breá.', ['Ba bhreá an lá é.', 'Bhí an lá go hálainn.'], o);
    expect(best.counts).toEqual(chrFSegmentStats('Bhí an lá go breá.', ['Bhí an lá go hálainn.'], o).counts);
    // With beta 0 the F-score is the precision, 1 for both references, whose counts differ.
    const tie = { charOrder: 2, beta: 0 };
    expect(chrFSegmentStats('ab', ['ab', 'abab'], tie).counts).toEqual([2, 2, 2, 1, 1, 1]);
    expect(chrFSegmentStats('ab', ['abab', 'ab'], tie).counts).toEqual([2, 4, 2, 1, 3, 1]);
  });

  it('reports a variable number of references as nrefs:var', () => {
    const r = corpusChrF(['a b', 'c d'], [['a b', 'c d'], ['a c', '']], { wordOrder: 2 });
    expect(r.nrefs).toBe('var');
    expect(r.signature).toContain('|nrefs:var|');
  });

  it('rejects options sacrebleu would not accept', () => {
    expect(() => chrF('a', ['a'], { charOrder: 0, wordOrder: 0 })).toThrow(MetricInputError);
    expect(() => chrF('a', ['a'], { charOrder: 2.5 })).toThrow(/charOrder/);
    expect(() => chrF('a', ['a'], { word_order: 2 } as never)).toThrow(/Unknown chrF option "word_order"/);
    expect(() => chrF('a', ['a'], { lowercase: 'yes' } as never)).toThrow(MetricInputError);
  });
});

describe('per-segment statistics', () => {
  const corpus = file.computed_chrfpp_vectors.filter(v => v.level === 'corpus');

  it.each(corpus.map((v, i) => [i, v] as const))('recomputes corpus vector %i from stored segment stats', (_, v) => {
    const o = options(v.params);
    const stored = JSON.parse(JSON.stringify(corpusChrFSegmentStats(v.hypotheses!, v.references_streams!, o)));
    expect(Math.abs(chrFFromStats(stored, o).score - v.expected)).toBeLessThanOrEqual(1e-9);
  });

  it('sums segment counts (a corpus score is not a mean of sentence scores)', () => {
    const hyps = ['Tá mé ag dul go dtí an siopa.', 'Is maith liom tae.'];
    const refs = ['Tá mé ag dul chuig an siopa.', 'Is maith liom caife.'];
    const segs = hyps.map((h, i) => chrFSegmentStats(h, [refs[i]!], { wordOrder: 2 }));
    const summed = segs[0]!.counts.map((c, j) => c + segs[1]!.counts[j]!);
    expect(corpusChrF(hyps, [refs], { wordOrder: 2 }).counts).toEqual(summed);
  });

  it('rejects stored stats computed with other options', () => {
    const seg = chrFSegmentStats('a b', ['a b'], { wordOrder: 2 });
    expect(() => chrFFromStats([seg], { wordOrder: 0 })).toThrow(/24 counts, expected 18/);
    expect(() => chrFFromStats([])).toThrow(MetricInputError);
  });
});

// A direct transcription of the algorithm in chrf.json's `_algorithm` notes: strings as code-point
// arrays, Python whitespace, n-grams as joined strings in Maps. Slow and obvious; the fast matcher
// must agree with it on random text full of the awkward cases.
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
function pySplit(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of s) {
    if (PY_SPACE.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}
function grams(units: string[], n: number, sep: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= units.length; i++) {
    const g = units.slice(i, i + n).join(sep);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}
function naiveStats(hyp: string, ref: string, nc: number, nw: number, ws: boolean): number[] {
  const chars = (s: string) => Array.from(ws ? s : pySplit(s).join(''));
  const words = (s: string) =>
    pySplit(s).flatMap(w => {
      const cp = Array.from(w);
      if (cp.length === 1) return [w];
      if (PUNCT.includes(cp.at(-1)!)) return [cp.slice(0, -1).join(''), cp.at(-1)!];
      if (PUNCT.includes(cp[0]!)) return [cp[0]!, cp.slice(1).join('')];
      return [w];
    });
  const out: number[] = [];
  const add = (h: string[], r: string[], n: number) => {
    const hg = grams(h, n, ' ');
    const rg = grams(r, n, ' ');
    let hc = 0;
    let rc = 0;
    let mc = 0;
    for (const [g, c] of hg) (hc += c), (mc += Math.min(c, rg.get(g) ?? 0));
    for (const c of rg.values()) rc += c;
    out.push(rg.size ? hc : 0, rc, mc);
  };
  for (let n = 1; n <= nc; n++) add(chars(hyp), chars(ref), n);
  for (let n = 1; n <= nw; n++) add(words(hyp), words(ref), n);
  return out;
}

describe('fast n-gram matcher agrees with a naive transcription', () => {
  const alphabet = ['a', 'b', 'á', 'ú', 'ch', '😀', '😁', '𝔸', ' ', '  ', '\t', '\u00a0', '\u3000', '\u001c', '\ufeff', '.', ',', '(', ')', "'", '-', 'mh', 'X'];
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const text = () => Array.from({ length: Math.floor(rand() * 30) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');

  it('on 400 random pairs at orders nc 6 / nw 2, nc 3 / nw 4 and nc 6 with whitespace kept', () => {
    for (let t = 0; t < 400; t++) {
      const hyp = text();
      const ref = text() || 'x';
      for (const [nc, nw, ws] of [[6, 2, false], [3, 4, false], [6, 0, true]] as const) {
        const ours = chrFSegmentStats(hyp, [ref], { charOrder: nc, wordOrder: nw, whitespace: ws }).counts;
        expect(ours, JSON.stringify([hyp, ref])).toEqual(naiveStats(hyp, ref, nc, nw, ws));
      }
    }
  });

  it('on long segments with thousands of distinct characters (the hashed rather than direct table)', () => {
    const cjk = () => String.fromCodePoint(0x4e00 + Math.floor(rand() * 2000));
    const long = () => Array.from({ length: 5000 }, () => (rand() < 0.2 ? ' ' : cjk())).join('');
    const hyp = long();
    const ref = hyp.slice(0, 2500) + long().slice(0, 2500);
    expect(chrFSegmentStats(hyp, [ref], { wordOrder: 2 }).counts).toEqual(naiveStats(hyp, ref, 6, 2, false));
  });
});
