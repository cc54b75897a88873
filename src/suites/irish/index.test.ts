import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ItemSchema } from '../../core/item.js';
import type { BuildResult } from '../builder.js';
import { createIrishBuilders, irishBuilders } from './index.js';

const tmp = mkdtempSync(join(tmpdir(), 'irish-sources-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A source folder with two BÚNaMo files and the first 12 sentences of the bank (CRLF kept). */
function smallSources(): string {
  const dir = join(tmp, 'small');
  mkdirSync(join(dir, 'bunamo', 'noun'), { recursive: true });
  mkdirSync(join(dir, 'bunamo', 'verb'), { recursive: true });
  mkdirSync(join(dir, 'irish-sentence-bank'), { recursive: true });
  copyFileSync('data/sources/bunamo/noun/iarnród_masc1.xml', join(dir, 'bunamo', 'noun', 'iarnród_masc1.xml'));
  copyFileSync('data/sources/bunamo/verb/feic_verb.xml', join(dir, 'bunamo', 'verb', 'feic_verb.xml'));
  const xml = readFileSync('data/sources/irish-sentence-bank/sentences.xml', 'utf8');
  const cut = xml.split('</sentence>').slice(0, 12).join('</sentence>') + '</sentence>\r\n</sentences>\r\n';
  writeFileSync(join(dir, 'irish-sentence-bank', 'sentences.xml'), cut);
  return dir;
}

describe('irishBuilders', () => {
  it('are the four Irish tests of suite irish', () => {
    expect(irishBuilders.map(b => `${b.suite}/${b.test}`)).toEqual(['irish/grammar_forms', 'irish/translation', 'irish/round_trip', 'irish/tutor_accuracy']);
    for (const b of irishBuilders) expect(b.rule.length).toBeGreaterThan(200);
  });

  it('report a shortfall, not an exception, when the source folders are missing', async () => {
    for (const b of irishBuilders) {
      const r = (await b.build({ sourcesDir: join(tmp, 'nothing'), seed: 1, targetPerTest: 50 })) as BuildResult;
      expect(r.items).toEqual([]);
      expect(r.shortfalls).toHaveLength(1);
      expect(r.shortfalls[0]).toMatchObject({ test: b.test, wanted: 50, got: 0 });
      expect(r.shortfalls[0]!.reason).toMatch(/^no (BÚNaMo|Irish Sentence Bank) folder at /);
    }
  });

  it('build what a small source folder allows and say why the rest is missing', async () => {
    const sourcesDir = smallSources();
    const results = await Promise.all(irishBuilders.map(b => b.build({ sourcesDir, seed: 1, targetPerTest: 50 })));
    const [forms, translation, , tutor] = results as Array<BuildResult & { exclusions?: Record<string, number> }>;
    expect(forms!.items.length).toBeGreaterThan(10);
    expect(forms!.items.length).toBeLessThan(50);
    expect(forms!.shortfalls[0]).toMatchObject({ wanted: 50, got: forms!.items.length });
    expect(forms!.shortfalls[0]!.reason).toMatch(/slots with a form equal to the lemma/);
    expect(Object.keys(forms!.exclusions!)).toContain('unreadable source (adjective/: subfolder not found)');
    expect(translation!.items.length).toBeLessThanOrEqual(12);
    expect(translation!.shortfalls[0]!.got).toBe(translation!.items.length);
    expect(tutor!.shortfalls.length).toBeGreaterThan(0);
    for (const r of results) for (const i of r.items) expect(ItemSchema.safeParse(i).success).toBe(true);
  });

  it('take their folder names and language from options, for other sources of the same format', async () => {
    const sourcesDir = smallSources();
    const [forms] = createIrishBuilders({ suite: 'irish-small', bunamoDir: 'bunamo' });
    const r = (await forms!.build({ sourcesDir, seed: 1, targetPerTest: 5 })) as BuildResult;
    expect(r.items).toHaveLength(5);
    expect(r.items[0]!.id.startsWith('irish-small/grammar_forms/')).toBe(true);
    const [, other] = createIrishBuilders({ sentenceBankDir: 'elsewhere' });
    expect(((await other!.build({ sourcesDir, seed: 1, targetPerTest: 5 })) as BuildResult).shortfalls[0]!.reason).toContain('elsewhere');
  });
});
