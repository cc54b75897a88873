import { describe, expect, it } from 'vitest';
import { editDiff, sameEdit, tokenize, type EditDiff } from './index.js';

const texts = (d: EditDiff) => d.changes.map(c => [c.kind, c.sourceText, c.targetText]);

describe('tokenize', () => {
  it('keeps fadas, apostrophes and hyphens inside words and splits punctuation off', () => {
    expect(tokenize("Tá m'athair ag ól an t-uisce, nach bhfuil?").map(t => t.text)).toEqual(
      ['Tá', "m'athair", 'ag', 'ól', 'an', 't-uisce', ',', 'nach', 'bhfuil', '?'],
    );
    expect(tokenize("Dw i’n hoffi coffi (3.5 cwpan).").map(t => t.text)).toEqual(['Dw', 'i’n', 'hoffi', 'coffi', '(', '3.5', 'cwpan', ')', '.']);
    // A trailing apostrophe is not inside a word.
    expect(tokenize("Tha mi a' dol").map(t => t.text)).toEqual(['Tha', 'mi', 'a', "'", 'dol']);
  });

  it('keeps English contractions and possessives whole and splits off the final stop', () => {
    expect(tokenize("Eva has shocked James's grandsons.").map(t => t.text)).toEqual(['Eva', 'has', 'shocked', "James's", 'grandsons', '.']);
    expect(tokenize("Katherine can't help herself.").map(t => t.text)).toEqual(['Katherine', "can't", 'help', 'herself', '.']);
  });

  it('keeps combining marks with their letter and gives offsets that slice back to each token', () => {
    const text = ' Ta\u0301  an mhadra\tmo\u0301r. ';
    const tokens = tokenize(text);
    expect(tokens.map(t => t.text)).toEqual(['Ta\u0301', 'an', 'mhadra', 'mo\u0301r', '.']);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('gives no tokens for empty or all-whitespace text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' \t\n')).toEqual([]);
  });
});

describe('editDiff', () => {
  it('finds a one-word replacement with token and character spans', () => {
    const d = editDiff('Tá an mhadra mór.', 'Tá an madra mór.');
    expect(d.unchanged).toBe(false);
    expect(d.changes).toEqual([{
      kind: 'replace', sourceStart: 2, sourceEnd: 3, targetStart: 2, targetEnd: 3,
      sourceCharStart: 6, sourceCharEnd: 12, targetCharStart: 6, targetCharEnd: 11, sourceText: 'mhadra', targetText: 'madra',
    }]);
  });

  it('finds deletions and insertions', () => {
    const del = editDiff('I have went to the store yesterday.', 'I went to the store yesterday.');
    expect(texts(del)).toEqual([['delete', 'have', '']]);
    expect(del.changes[0]).toMatchObject({ sourceStart: 1, sourceEnd: 2, targetStart: 1, targetEnd: 1, targetCharStart: 2, targetCharEnd: 2 });
    const ins = editDiff('Where is the station', 'Where is the station?');
    expect(texts(ins)).toEqual([['insert', '', '?']]);
    expect(ins.changes[0]).toMatchObject({ sourceStart: 4, sourceEnd: 4, sourceCharStart: 20, sourceCharEnd: 20 });
  });

  it('groups neighbouring token changes into one hunk and keeps separate hunks apart', () => {
    expect(texts(editDiff('Paula reference Robert.', 'Paula references Roberta!'))).toEqual([['replace', 'reference Robert.', 'references Roberta!']]);
    expect(texts(editDiff('Paula reference Robert yesterday.', 'Paula references Robert today!'))).toEqual([
      ['replace', 'reference', 'references'], ['replace', 'yesterday.', 'today!'],
    ]);
    expect(texts(editDiff('The cat sat on the mat.', 'The cat is sitting on the mat.'))).toEqual([['replace', 'sat', 'is sitting']]);
  });

  it('ignores whitespace and, only when asked, normalises tokens', () => {
    expect(editDiff('Tá an madra mór.', ' Tá  an madra\nmór . ').unchanged).toBe(true);
    expect(editDiff('Tá an madra mór.', 'tá an madra mór.').unchanged).toBe(false);
    expect(editDiff('Tá an madra mór.', 'tá an madra mo\u0301r.', { normalize: {} }).unchanged).toBe(true);
  });

  it('handles empty texts', () => {
    expect(editDiff('', '')).toMatchObject({ changes: [], unchanged: true });
    expect(texts(editDiff('', 'Tá.'))).toEqual([['insert', '', 'Tá.']]);
    expect(texts(editDiff('Tá.', ' '))).toEqual([['delete', 'Tá.', '']]);
  });

  // Independent check of minimality: the number of changed tokens must be n + m - 2 * LCS, and
  // applying the changes to the source must give the target.
  it('is a minimal, correct edit script on random word sequences', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const words = ['an', 'madra', 'mór', 'tá', '.', ',', 'mhadra'];
    const sentence = () => Array.from({ length: Math.floor(rand() * 12) }, () => words[Math.floor(rand() * words.length)]).join(' ');
    for (let t = 0; t < 300; t++) {
      const a = sentence();
      const b = sentence();
      const d = editDiff(a, b);
      const at = d.sourceTokens.map(x => x.text);
      const bt = d.targetTokens.map(x => x.text);
      const lcs = Array.from({ length: at.length + 1 }, () => new Array<number>(bt.length + 1).fill(0));
      for (let i = at.length - 1; i >= 0; i--)
        for (let j = bt.length - 1; j >= 0; j--) lcs[i]![j] = at[i] === bt[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      const changed = d.changes.reduce((s, c) => s + c.sourceEnd - c.sourceStart + c.targetEnd - c.targetStart, 0);
      expect(changed, `${a} | ${b}`).toBe(at.length + bt.length - 2 * lcs[0]![0]!);
      const rebuilt = [...at];
      for (const c of [...d.changes].reverse()) rebuilt.splice(c.sourceStart, c.sourceEnd - c.sourceStart, ...bt.slice(c.targetStart, c.targetEnd));
      expect(rebuilt).toEqual(bt);
    }
  });
});

describe('sameEdit (the tutor test: fix the one error, change nothing else)', () => {
  const learner = 'Tá an mhadra mór.';
  const key = 'Tá an madra mór.';

  it('accepts the correct fix, whatever the whitespace or apostrophe style', () => {
    expect(sameEdit(learner, key, 'Tá an madra mór.')).toMatchObject({ ok: true, code: 'match', extraChanges: [], missingChanges: [] });
    expect(sameEdit(learner, key, '  Tá an  madra mór .').ok).toBe(true);
    expect(sameEdit('Paula reference Robert.', 'Paula references Robert.', 'Paula references Robert.').reason).toBe(
      'makes exactly the expected edit(s): «reference» → «references»',
    );
    expect(sameEdit('Rydw i’n hoffi coffi, dw i.', "Rydw i'n hoffi coffi.", 'Rydw i’n hoffi coffi.').ok).toBe(true);
  });

  it('rejects a fix plus an extra change, naming the extra change', () => {
    const r = sameEdit(learner, key, 'Tá an madra beag.');
    expect(r).toMatchObject({ ok: false, code: 'extra-edits', missingChanges: [] });
    expect(r.extraChanges.map(c => [c.sourceText, c.targetText])).toEqual([['mór', 'beag']]);
    const far = sameEdit('I have went to the store yesterday.', 'I went to the store yesterday.', 'I went to the shop yesterday.');
    expect(far.code).toBe('extra-edits');
    expect(far.reason).toBe('makes the expected edit(s) and 1 more: «store» → «shop»');
  });

  it('rejects an unchanged sentence (the copy baseline)', () => {
    const r = sameEdit(learner, key, learner);
    expect(r).toMatchObject({ ok: false, code: 'unchanged', extraChanges: [] });
    expect(r.missingChanges.map(c => [c.kind, c.sourceText, c.targetText])).toEqual([['replace', 'mhadra', 'madra']]);
    expect(r.reason).toBe('changes nothing; expected: «mhadra» → «madra»');
  });

  it('rejects a wrong fix of the right word', () => {
    const r = sameEdit(learner, key, 'Tá an madraí mór.');
    expect(r.code).toBe('wrong-edit');
    expect(r.reason).toBe('wrong edit: «mhadra» → «madraí» where «mhadra» → «madra» was expected');
    expect(sameEdit('Paula reference Robert.', 'Paula references Robert.', 'Paula referenced Robert.').code).toBe('wrong-edit');
  });

  it('judges punctuation-only changes as edits', () => {
    expect(sameEdit('Where is the station', 'Where is the station?', 'Where is the station?').ok).toBe(true);
    expect(sameEdit('Where is the station', 'Where is the station?', 'Where is the station.').code).toBe('wrong-edit');
    const extra = sameEdit('Paula reference Robert.', 'Paula references Robert.', 'Paula references Robert!');
    expect(extra.code).toBe('extra-edits');
    expect(extra.extraChanges.map(c => [c.sourceText, c.targetText])).toEqual([['.', '!']]);
    expect(sameEdit('Paula reference Robert.', 'Paula references Robert.', 'Paula references Robert').code).toBe('extra-edits');
  });

  it('reports missing edits when only some of several expected fixes are made', () => {
    const r = sameEdit('Tá an mhadra mhór.', 'Tá an madra mór.', 'Tá an madra mhór.');
    expect(r.code).toBe('missing-edits');
    expect(r.missingChanges.map(c => [c.sourceText, c.targetText])).toEqual([['mhór', 'mór']]);
  });

  it('treats case as equal by default and as an edit with caseFold off', () => {
    expect(sameEdit(learner, key, 'tá an madra mór.').ok).toBe(true);
    const strict = sameEdit(learner, key, 'tá an madra mór.', { normalize: { caseFold: false } });
    expect(strict.code).toBe('extra-edits');
    expect(strict.extraChanges.map(c => [c.sourceText, c.targetText])).toEqual([['Tá', 'tá']]);
  });

  it('handles empty strings and no-edit-expected items', () => {
    expect(sameEdit('', '', '')).toMatchObject({ ok: true, code: 'match', reason: 'no edit was expected and none was made' });
    expect(sameEdit(key, key, key).ok).toBe(true);
    const wiped = sameEdit(key, key, '');
    expect(wiped.code).toBe('extra-edits');
    expect(wiped.reason).toBe('no edit was expected but it makes 1: delete «Tá an madra mór.»');
    expect(sameEdit(learner, key, '').code).toBe('different-edits');
  });
});
