import { isAbsolute, join } from 'node:path';
import type { Item } from '../../core/item.js';
import type { BuildContext, BuildResult, Shortfall } from '../builder.js';
import type { BuildNotes } from '../sampling.js';
import { readBunamo, type BunamoRead } from '../sources/bunamo.js';
import { readSentenceBank, type BankSentence, type SentenceBankRead } from '../sources/sentence-bank.js';

/**
 * Where the Irish builders find their sources and what they call things. The defaults read the
 * subsets shipped in data/sources; point the folders at the full BÚNaMo or at another source in
 * the same format (and change `language`) to build a larger or different suite.
 */
export interface IrishOptions {
  suite: string;
  /** Language under test (BCP 47). */
  language: string;
  /** Language of the sentence bank's translations, used as the other side of translation items. */
  pivot: string;
  /** BÚNaMo folder, relative to `ctx.sourcesDir` unless absolute. */
  bunamoDir: string;
  /** Sentence-bank folder, relative to `ctx.sourcesDir` unless absolute. */
  sentenceBankDir: string;
  /** Sentence `source` codes whose sentences may be published in the public sample; others stay private. */
  publicSources: readonly string[];
  /** Third-party sentences (not in `publicSources`) longer than this many words are not used at all. */
  maxThirdPartyWords: number;
  licence: string;
  bunamoDataset: string;
  sentenceDataset: string;
}

export const DEFAULT_OPTIONS: IrishOptions = {
  suite: 'irish',
  language: 'ga',
  pivot: 'en',
  bunamoDir: 'bunamo',
  sentenceBankDir: 'irish-sentence-bank',
  // potaL is, as far as the upstream README lets us tell, the author's own Pota Focal glossary examples;
  // every other code names a published book or site (data/sources/irish-sentence-bank/ATTRIBUTION.md).
  publicSources: ['potaL'],
  maxThirdPartyWords: 12,
  licence: 'ODbL-1.0',
  bunamoDataset: 'BuNaMo',
  sentenceDataset: 'Irish Sentence Bank',
};

/** Result of a builder, with the counts build.ts puts into the build report. */
export type IrishBuildResult = BuildResult & BuildNotes;

/** The fields every item of this suite shares; evidence, answers and input are the builder's. */
export function baseItem(o: IrishOptions, fields: {
  id: string;
  test: string;
  input: Item['input'];
  accepted?: string[];
  references?: string[];
  extra?: Record<string, unknown>;
  source: Item['source'];
  evidence: string;
  topic: string;
  notes?: string;
}): Item {
  // Key order here is the order in the JSONL files: stable, readable, answer before provenance.
  const item: Item = {
    id: fields.id,
    test: fields.test,
    language: o.language,
    input: fields.input,
    ...(fields.accepted ? { accepted: fields.accepted } : {}),
    ...(fields.references ? { references: fields.references } : {}),
    ...(fields.extra ?? {}),
    source: fields.source,
    licence: o.licence,
    evidence: fields.evidence,
    visibility: 'private',
    contamination: 'public-source',
    human_checked: false,
    topic: fields.topic,
    ...(fields.notes ? { notes: fields.notes } : {}),
  };
  return item;
}

export function resolveDir(ctx: BuildContext, dir: string): string {
  return isAbsolute(dir) ? dir : join(ctx.sourcesDir, dir);
}

export function missingSource(test: string, wanted: number, what: string, dir: string, expected: string): Shortfall {
  return { test, wanted, got: 0, reason: `no ${what} folder at ${dir} (expected ${expected}); nothing was built.` };
}

/** Source problems (missing subfolders, unparsable files or records) as exclusions, so the build report names them. */
export function problemExclusions(problems: ReadonlyArray<{ file: string; message: string }>, into: Map<string, number>): void {
  const shown = problems.slice(0, 10);
  for (const p of shown) bump(into, `unreadable source (${p.file}: ${p.message})`);
  if (problems.length > shown.length) bump(into, 'more unreadable source files or records', problems.length - shown.length);
}

export function loadBunamo(ctx: BuildContext, o: IrishOptions): { dir: string; read: BunamoRead } {
  const dir = resolveDir(ctx, o.bunamoDir);
  return { dir, read: readBunamo(dir, ['noun', 'adjective', 'verb', 'preposition']) };
}

export function loadSentenceBank(ctx: BuildContext, o: IrishOptions): { dir: string; read: SentenceBankRead } {
  const dir = resolveDir(ctx, o.sentenceBankDir);
  return { dir, read: readSentenceBank(dir) };
}

/** Tokens that contain a letter: dialogue dashes and stray punctuation tokens are not words. */
export function wordCount(s: BankSentence): number {
  return s.tokens.filter(t => /\p{L}/u.test(t.text)).length;
}

/** Length stratum: short up to 5 words, medium 6 to 10, long 11 or more. */
export function lengthBand(words: number): 'short' | 'medium' | 'long' {
  return words <= 5 ? 'short' : words <= 10 ? 'medium' : 'long';
}

export const sentenceKey = (s: BankSentence): string => `sentence #${s.index}`;

/** Provenance of a sentence-derived item: the record key plus the sentence's own source and blurb. */
export function sentenceSource(o: IrishOptions, s: BankSentence, extra: Record<string, unknown> = {}): Item['source'] {
  return {
    dataset: o.sentenceDataset,
    file: s.file,
    key: sentenceKey(s),
    sentenceSource: s.source,
    ...(s.sourceBlurb ? { sourceBlurb: s.sourceBlurb } : {}),
    ...extra,
  };
}

export interface SentenceUse {
  ok: boolean;
  reason?: string;
  publicOk: boolean;
  words: number;
}

/**
 * Whether a sentence may be used at all, and whether in public. Third-party sentences are used only
 * as short examples (the database licence does not cover copyright in them) and never published.
 */
export function sentenceUse(o: IrishOptions, s: BankSentence, minWords: number): SentenceUse {
  const words = wordCount(s);
  const publicOk = o.publicSources.includes(s.source);
  if (words < minWords) return { ok: false, reason: `sentences of fewer than ${minWords} words`, publicOk, words };
  if (!publicOk && words > o.maxThirdPartyWords) {
    return { ok: false, reason: `third-party sentences longer than ${o.maxThirdPartyWords} words (used only as short examples)`, publicOk, words };
  }
  return { ok: true, publicOk, words };
}

export function bump(map: Map<string, number>, reason: string, by = 1): void {
  map.set(reason, (map.get(reason) ?? 0) + by);
}
