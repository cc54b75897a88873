import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StatsInputError } from '../inference/errors.js';
import {
  cohenKappa, cohenKappaOfTable, cronbachAlpha, fleissKappa, icc, krippendorffAlpha, ratingsToTable, type IccType, type MeasurementLevel,
} from './index.js';

type IccRow = { icc: number; f: number; df1: number; df2: number; pValue: number; ciLow: number; ciHigh: number };
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/agreement.json', import.meta.url), 'utf8')) as {
  data: {
    anxiety: number[][]; diagnoses: number[][]; wikipedia_fleiss: number[][];
    kripp_canonical: (number | null)[][]; kripp_wikipedia: (number | null)[][];
    shrout_fleiss: number[][]; wine: number[][]; ord_a: number[]; ord_b: number[]; str_a: string[]; str_b: string[];
    ratings: number[][]; kripp_synthetic: (number | null)[][]; icc_matrix: number[][]; cronbach_matrix: number[][];
  };
  computed: {
    cohen: {
      anxiety_2_3: Record<string, number>; ordinal: Record<string, number>; ordinal_labels_1_to_4: number;
      strings: number; strings_ordered_quadratic: number;
    };
    fleiss: Record<'diagnoses' | 'wikipedia' | 'wikipedia_randolph' | 'ratings', number>;
    krippendorff: Record<'canonical' | 'wikipedia' | 'synthetic', Record<string, number>>;
    icc: Record<'shrout_fleiss' | 'wine' | 'synthetic' | 'synthetic_90', Record<IccType, IccRow>>;
    cronbach: Record<'synthetic' | 'synthetic_90' | 'wine', { alpha: number; ciLow: number; ciHigh: number }>;
  };
  published: Record<string, Record<string, unknown>>;
};
const D = ref.data;
const C = ref.computed;
const P = ref.published as Record<string, Record<string, number> & { decimals: number }>;
const near = (a: number, b: number, tol = 1e-9, what = '') =>
  expect(Math.abs(a - b), `${what} ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));
/** A published value printed with `decimals` places: within half a unit of its last place. */
const published = (a: number, b: number, decimals: number, what = '') =>
  expect(Math.abs(a - b), `${what} ${a} vs published ${b}`).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12);
const col = (m: number[][], j: number) => m.map(r => r[j]!);
const WEIGHTS = ['none', 'linear', 'quadratic'] as const;

describe('cohenKappa (sklearn cohen_kappa_score)', () => {
  it('anxiety raters 2 and 3: published R irr values and numpy reference', () => {
    for (const w of WEIGHTS) {
      const k = cohenKappa(col(D.anxiety, 1), col(D.anxiety, 2), { weights: w }).kappa;
      near(k, C.cohen.anxiety_2_3[w]!, 1e-12, w);
      published(k, P['cohen_anxiety_2_3']![w]!, 7, w);
    }
  });

  it('ordinal ratings, all weightings; explicit labels drop other pairs', () => {
    for (const w of WEIGHTS) near(cohenKappa(D.ord_a, D.ord_b, { weights: w }).kappa, C.cohen.ordinal[w]!, 1e-12, w);
    const r = cohenKappa(D.ord_a, D.ord_b, { weights: 'linear', labels: [1, 2, 3, 4] });
    near(r.kappa, C.cohen.ordinal_labels_1_to_4, 1e-12);
    expect(r.n).toBe(D.ord_a.filter((v, i) => v <= 4 && D.ord_b[i]! <= 4).length);
  });

  it('string labels: sorted by default, ordered by `labels` for weights', () => {
    const r = cohenKappa(D.str_a, D.str_b);
    near(r.kappa, C.cohen.strings, 1e-12);
    expect(r.labels).toEqual(['bad', 'fair', 'good']);
    near(cohenKappa(D.str_a, D.str_b, { weights: 'quadratic', labels: ['bad', 'fair', 'good'] }).kappa, C.cohen.strings_ordered_quadratic, 1e-12);
  });

  it('edge cases and errors', () => {
    expect(cohenKappa([1, 2, 3], [1, 2, 3]).kappa).toBe(1);
    expect(cohenKappa(['x', 'x'], ['x', 'x']).kappa).toBeNaN();
    expect(() => cohenKappa([1, 2], [1])).toThrow(/^b: must have the same length/);
    expect(() => cohenKappa([1, 'a'], [1, 'a'])).toThrow(/mixes numbers and strings/);
    expect(() => cohenKappa([1, Number.NaN], [1, 2])).toThrow(/^a\[1\]/);
    expect(() => cohenKappa([1, 2], [1, 2], { weights: 'cubic' as never })).toThrow(/^weights/);
    expect(() => cohenKappa([1, 2], [1, 2], { labels: [7] })).toThrow(/^labels/);
    expect(() => cohenKappa([], [])).toThrow(StatsInputError);
  });
});

describe('cohenKappaOfTable (the same kappa from counted pairs)', () => {
  // The pairs counted here, in the test, into a table: rows rater a, columns rater b.
  const tableOf = (a: Array<number | string>, b: Array<number | string>, labels: Array<number | string>) =>
    labels.map(r => labels.map(c => a.filter((v, i) => v === r && b[i] === c).length));

  it('anxiety raters 2 and 3 and the ordinal ratings, all weightings, as the references give them', () => {
    const a = col(D.anxiety, 1);
    const b = col(D.anxiety, 2);
    const labels = [...new Set([...a, ...b])].sort((x, y) => x - y);
    for (const w of WEIGHTS) near(cohenKappaOfTable(tableOf(a, b, labels), { weights: w, labels }).kappa, C.cohen.anxiety_2_3[w]!, 1e-12, w);
    const ordinal = [...new Set([...D.ord_a, ...D.ord_b])].sort((x, y) => x - y);
    for (const w of WEIGHTS) near(cohenKappaOfTable(tableOf(D.ord_a, D.ord_b, ordinal), { weights: w, labels: ordinal }).kappa, C.cohen.ordinal[w]!, 1e-12, w);
    const r = cohenKappaOfTable(tableOf(D.str_a, D.str_b, ['bad', 'fair', 'good']), { labels: ['bad', 'fair', 'good'] });
    near(r.kappa, C.cohen.strings, 1e-12);
    expect(r.n).toBe(D.str_a.length);
  });

  it('refuses a table that does not fit its labels or counts nothing', () => {
    expect(() => cohenKappaOfTable([[1, 0]], { labels: ['fail', 'pass'] })).toThrow(/^confusion: must have 2 rows/);
    expect(() => cohenKappaOfTable([[1], [0, 1]], { labels: ['fail', 'pass'] })).toThrow(/^confusion\[0\]: must have 2 columns/);
    expect(() => cohenKappaOfTable([[1, 0.5], [0, 1]], { labels: ['fail', 'pass'] })).toThrow(/^confusion\[0\]\[1\]: must be a count/);
    expect(() => cohenKappaOfTable([[0, 0], [0, 0]], { labels: ['fail', 'pass'] })).toThrow(/^confusion: counts no pair/);
    expect(() => cohenKappaOfTable([[1]], { labels: [] })).toThrow(/^labels/);
    expect(cohenKappaOfTable([[0, 0], [0, 3]], { labels: ['fail', 'pass'] }).kappa).toBeNaN();
  });
});

describe('fleissKappa (statsmodels fleiss_kappa)', () => {
  it('Fleiss (1971) diagnoses: 30 subjects, 6 raters, 5 categories', () => {
    const { table, categories } = ratingsToTable(D.diagnoses);
    expect(categories).toEqual([1, 2, 3, 4, 5]);
    const r = fleissKappa(table);
    near(r.kappa, C.fleiss.diagnoses, 1e-12);
    published(r.kappa, P['fleiss_diagnoses']!['kappa']!, 7);
    expect([r.subjects, r.raters, r.categories]).toEqual([30, 6, 5]);
  });

  it('Wikipedia worked example (14 raters), Fleiss and Randolph', () => {
    const r = fleissKappa(D.wikipedia_fleiss);
    near(r.kappa, C.fleiss.wikipedia, 1e-12);
    published(r.kappa, P['fleiss_wikipedia']!['kappa']!, 3);
    near(fleissKappa(D.wikipedia_fleiss, { method: 'randolph' }).kappa, C.fleiss.wikipedia_randolph, 1e-12);
  });

  it('synthetic ratings', () => {
    near(fleissKappa(ratingsToTable(D.ratings, [1, 2, 3, 4, 5]).table).kappa, C.fleiss.ratings, 1e-12);
  });

  it('errors', () => {
    expect(() => fleissKappa([[1, 2], [2, 2]])).toThrow(/^table\[1\]: sums to 4/);
    expect(() => fleissKappa([[1, 0], [0, 1]])).toThrow(/at least 2 ratings/);
    expect(() => fleissKappa([[1, -1]])).toThrow(/^table\[0\]\[1\]/);
    expect(() => fleissKappa([[1, 1], [2]])).toThrow(/^table\[1\]: expected 2/);
    expect(() => fleissKappa([])).toThrow(/^table/);
    expect(() => ratingsToTable([[1, 9]], [1, 2])).toThrow(/^ratings\[0\]\[1\]/);
  });
});

describe('krippendorffAlpha (Krippendorff 2011; krippendorff package)', () => {
  it("Krippendorff's canonical reliability data: published 0.743 / 0.815 / 0.849 / 0.797", () => {
    for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as MeasurementLevel[]) {
      const r = krippendorffAlpha(D.kripp_canonical, { level });
      near(r.alpha, C.krippendorff.canonical[level]!, 1e-12, level);
      published(r.alpha, P['kripp_canonical']![level]!, 3, level);
      expect(r.units).toBe(11);
    }
  });

  it('Wikipedia example: published 0.691358 (nominal), 0.810845 (interval)', () => {
    for (const level of ['nominal', 'interval'] as MeasurementLevel[]) {
      const r = krippendorffAlpha(D.kripp_wikipedia, { level });
      near(r.alpha, C.krippendorff.wikipedia[level]!, 1e-12, level);
      published(r.alpha, P['kripp_wikipedia']![level]!, 6, level);
    }
  });

  it('synthetic 5 raters x 30 units with 25% missing', () => {
    for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as MeasurementLevel[]) {
      near(krippendorffAlpha(D.kripp_synthetic, { level }).alpha, C.krippendorff.synthetic[level]!, 1e-12, level);
    }
  });

  it('ordinal string labels need a domain, which then orders them', () => {
    const names = ['very low', 'low', 'mid', 'high', 'very high'];
    const asText = D.kripp_canonical.map(row => row.map(v => (v === null ? null : names[v - 1]!)));
    expect(() => krippendorffAlpha(asText, { level: 'ordinal' })).toThrow(/^valueDomain/);
    near(krippendorffAlpha(asText, { level: 'ordinal', valueDomain: names }).alpha, C.krippendorff.canonical['ordinal']!, 1e-12);
    near(krippendorffAlpha(asText).alpha, C.krippendorff.canonical['nominal']!, 1e-12);
  });

  it('edge cases and errors', () => {
    expect(krippendorffAlpha([[1, 2, 3, 4], [1, 2, 3, 4]], { level: 'interval' }).alpha).toBe(1);
    expect(krippendorffAlpha([[0, 1, 2], [0, 1, 2]], { level: 'ratio' }).alpha).toBe(1);
    expect(() => krippendorffAlpha([[1, null], [null, 2]])).toThrow(/at least one unit/);
    expect(() => krippendorffAlpha([[1, 1], [1, 1]])).toThrow(/two distinct values/);
    expect(() => krippendorffAlpha([[1, 2], [1]])).toThrow(/^data\[1\]/);
    expect(() => krippendorffAlpha([[1, 2], [1, 3]], { valueDomain: [1, 2] })).toThrow(/not in valueDomain/);
    expect(() => krippendorffAlpha([['a', 'b'], ['a', 'b']], { level: 'interval', valueDomain: ['a', 'b'] })).toThrow(/numeric/);
    expect(() => krippendorffAlpha([[1, 2]], { level: 'cardinal' as never })).toThrow(/^level/);
  });
});

describe('icc (pingouin intraclass_corr, Shrout & Fleiss 1979)', () => {
  const TYPES: IccType[] = ['ICC1', 'ICC2', 'ICC3', 'ICC1k', 'ICC2k', 'ICC3k'];
  const check = (matrix: number[][], expected: Record<IccType, IccRow>, level = 0.95) => {
    const r = icc(matrix, { level });
    expect(r.forms.map(f => f.type)).toEqual(TYPES);
    for (const t of TYPES) {
      const got = r.byType[t];
      const e = expected[t];
      for (const key of ['icc', 'f', 'df1', 'df2', 'ciLow', 'ciHigh'] as const) near(got[key], e[key], 1e-9, `${t} ${key}`);
      expect(Math.abs(got.pValue - e.pValue)).toBeLessThanOrEqual(1e-9 * e.pValue + 1e-300);
    }
    return r;
  };

  it('Shrout & Fleiss (1979) Table 2: the six published ICCs', () => {
    const r = check(D.shrout_fleiss, C.icc.shrout_fleiss);
    for (const t of TYPES) published(r.byType[t].icc, P['shrout_fleiss']![t]!, 2, t);
    expect(r.byType.ICC2k.shroutFleiss).toBe('ICC(2,k)');
  });

  it("pingouin's wine example: ICC, F, df and 95% intervals as its docstring prints them", () => {
    const r = check(D.wine, C.icc.wine);
    const pub = ref.published['wine'] as unknown as Record<IccType, { icc: number; f: number; df1: number; df2: number; ci: [number, number] }>;
    for (const t of TYPES) {
      published(r.byType[t].icc, pub[t].icc, 3, `${t} icc`);
      published(r.byType[t].f, pub[t].f, 3, `${t} F`);
      expect([r.byType[t].df1, r.byType[t].df2]).toEqual([pub[t].df1, pub[t].df2]);
      published(r.byType[t].ciLow, pub[t].ci[0], 2, `${t} low`);
      published(r.byType[t].ciHigh, pub[t].ci[1], 2, `${t} high`);
    }
  });

  it('synthetic 15 x 5 at 95% and 90%', () => {
    check(D.icc_matrix, C.icc.synthetic);
    check(D.icc_matrix, C.icc.synthetic_90, 0.9);
  });

  it('errors', () => {
    expect(() => icc([[1, 2]])).toThrow(/^matrix: needs at least 2 rows/);
    expect(() => icc([[1], [2]])).toThrow(/^matrix\[0\]: needs at least 2 columns/);
    expect(() => icc([[1, 2], [3]])).toThrow(/^matrix\[1\]: expected 2/);
    expect(() => icc([[1, 2], [3, Number.NaN]])).toThrow(/^matrix\[1\]\[1\]/);
    expect(() => icc([[1, 2], [3, 4]], { level: 2 })).toThrow(/^level/);
  });
});

describe('cronbachAlpha (pingouin cronbach_alpha)', () => {
  it('synthetic 25 x 6 with Feldt intervals; wine matrix', () => {
    for (const [m, e, level] of [
      [D.cronbach_matrix, C.cronbach.synthetic, 0.95], [D.cronbach_matrix, C.cronbach.synthetic_90, 0.9], [D.wine, C.cronbach.wine, 0.95],
    ] as const) {
      const r = cronbachAlpha(m as number[][], { level });
      near(r.alpha, e.alpha, 1e-12);
      near(r.ciLow, e.ciLow, 1e-9);
      near(r.ciHigh, e.ciHigh, 1e-9);
    }
  });

  it('equals ICC(3,k) on the same matrix (Shrout & Fleiss; psych)', () => {
    near(cronbachAlpha(D.shrout_fleiss).alpha, icc(D.shrout_fleiss).byType.ICC3k.icc, 1e-12);
  });

  it('errors', () => {
    expect(() => cronbachAlpha([[1, 2, 3]])).toThrow(/^matrix/);
    expect(() => cronbachAlpha([[1, 2], [1, '2' as never]])).toThrow(/^matrix\[1\]\[1\]/);
  });
});

describe('constant data at the level of rounding error', () => {
  it('gives NaN, not perfect reliability, when the totals do not vary', () => {
    const constant = Array.from({ length: 12 }, () => [0.65, 0.65]);
    expect(Number.isNaN(cronbachAlpha(constant).alpha)).toBe(true);
    const forms = icc(constant).forms;
    expect(forms.every(f => Number.isNaN(f.icc))).toBe(true);
  });
  it('still computes on data that does vary, however little', () => {
    const tiny = Array.from({ length: 12 }, (_, i) => [0.65 + i * 1e-6, 0.65 + i * 1e-6 + (i % 2) * 1e-7]);
    expect(cronbachAlpha(tiny).alpha).toBeGreaterThan(0.99);
    expect(icc(tiny).byType.ICC2.icc).toBeGreaterThan(0.99);
  });
});

describe('edge cases found by fuzzing against scipy', () => {
  it('gives finite ICC2/ICC2k bounds with two subjects, where the Satterthwaite df is tiny', () => {
    // numpy implementation of pingouin's formulas with scipy F quantiles: ICC2 low -0.0444444, ICC2k low -0.4242424
    const r = icc([[2, 1, 1, 4, 5, 2, 4], [3, 1, 2, 5, 4, 2, 2]]);
    expect(r.byType.ICC2.ciLow).toBeCloseTo(-0.0444444, 6);
    expect(r.byType.ICC2k.ciLow).toBeCloseTo(-0.4242424, 6);
  });
});
