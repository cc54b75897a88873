import { describe, expect, it } from 'vitest';
import { DEFAULT_NORMALIZE_OPTIONS, MetricInputError, matchesAccepted, normalizeAnswer } from './index.js';

describe('normalizeAnswer', () => {
  it('applies NFC, lowercasing, apostrophes, inner-space collapsing and trimming by default', () => {
    expect(normalizeAnswer('  Tá  an\tmadra \u00a0 MÓR. \n')).toBe('tá an madra mór.');
    expect(normalizeAnswer('Dw i’n hoffi coffi.')).toBe("dw i'n hoffi coffi.");
  });

  it('makes a decomposed fada equal to the precomposed letter', () => {
    const decomposed = 'Ta\u0301 se\u0301 fuar.';
    expect(decomposed).not.toBe('Tá sé fuar.');
    expect(normalizeAnswer(decomposed)).toBe(normalizeAnswer('Tá sé fuar.'));
    expect(normalizeAnswer(decomposed, { nfc: false })).not.toBe(normalizeAnswer('Tá sé fuar.', { nfc: false }));
  });

  it.each(["'", '\u2019', '\u2018', '\u02bc', '`', '\u00b4'])('maps the apostrophe variant %s to an ASCII apostrophe', a => {
    expect(normalizeAnswer(`Tha mi a${a} dol`)).toBe("tha mi a' dol");
    expect(normalizeAnswer(`m${a}athair`, { apostrophes: false })).toBe(`m${a}athair`);
  });

  it('switches each step off on its own', () => {
    expect(normalizeAnswer(' Paula  References Robert. ', { caseFold: false })).toBe('Paula References Robert.');
    expect(normalizeAnswer(' Paula  References Robert. ', { trim: false })).toBe(' paula references robert. ');
    expect(normalizeAnswer(' Paula  References Robert. ', { collapseSpaces: false })).toBe('paula  references robert.');
  });

  it('strips one trailing full stop only when asked, and never an ellipsis', () => {
    expect(DEFAULT_NORMALIZE_OPTIONS.stripTrailingFullStop).toBe(false);
    expect(normalizeAnswer('Tá sé fuar.')).toBe('tá sé fuar.');
    expect(normalizeAnswer('Tá sé fuar.', { stripTrailingFullStop: true })).toBe('tá sé fuar');
    expect(normalizeAnswer('Tá sé fuar . ', { stripTrailingFullStop: true })).toBe('tá sé fuar');
    expect(normalizeAnswer('Fan go fóill...', { stripTrailingFullStop: true })).toBe('fan go fóill...');
    expect(normalizeAnswer('An bhfuil tú ann?', { stripTrailingFullStop: true })).toBe('an bhfuil tú ann?');
  });

  it('turns empty and all-whitespace text into the empty string', () => {
    expect(normalizeAnswer('')).toBe('');
    expect(normalizeAnswer(' \t\n\u00a0')).toBe('');
  });

  it('lowercases without Turkish rules (documented caveat)', () => {
    expect(normalizeAnswer('İSTANBUL')).toBe('i\u0307stanbul');
    expect(normalizeAnswer('ISPARTA')).toBe('isparta');
    expect(normalizeAnswer('STRASSE')).not.toBe(normalizeAnswer('Straße'));
  });

  it('rejects unknown options and non-boolean switches with a MetricInputError', () => {
    expect(() => normalizeAnswer('x', { caseFlod: true } as never)).toThrow(/Unknown normalisation option "caseFlod"/);
    expect(() => normalizeAnswer('x', { trim: 'yes' } as never)).toThrow(MetricInputError);
  });
});

describe('matchesAccepted', () => {
  const accepted = ['Tá an madra mór.', 'Tá an madra ard.'];

  it('returns the first accepted answer that matches after normalisation', () => {
    expect(matchesAccepted('  tá an  madra ARD. ', accepted)).toEqual({ matched: true, acceptedIndex: 1, normalizedAnswer: 'tá an madra ard.' });
    expect(matchesAccepted('Tá an madra mór.', [...accepted, 'tá an madra mór.']).acceptedIndex).toBe(0);
  });

  it('does not match a wrong form', () => {
    expect(matchesAccepted('Tá an mhadra mór.', accepted)).toEqual({ matched: false, acceptedIndex: null, normalizedAnswer: 'tá an mhadra mór.' });
    expect(matchesAccepted('Paula reference Robert.', ['Paula references Robert.']).matched).toBe(false);
  });

  it('uses the same options for the answer and the accepted answers', () => {
    expect(matchesAccepted('Tá an madra mór', accepted).matched).toBe(false);
    expect(matchesAccepted('Tá an madra mór', accepted, { stripTrailingFullStop: true }).matched).toBe(true);
    expect(matchesAccepted('tá an madra mór.', accepted, { caseFold: false }).matched).toBe(false);
  });

  it('handles empty answers and an empty accepted list', () => {
    expect(matchesAccepted('Tá an madra mór.', [])).toEqual({ matched: false, acceptedIndex: null, normalizedAnswer: 'tá an madra mór.' });
    expect(matchesAccepted('   ', accepted).matched).toBe(false);
    expect(matchesAccepted('   ', ['']).acceptedIndex).toBe(0);
  });
});
