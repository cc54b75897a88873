import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../core/index.js';
import type { TestBuilder } from './builder.js';
import { createEnglishBuilders } from './english/index.js';
import { createIrishBuilders } from './irish/index.js';
import type { SourceCredit } from './methodology.js';

const MorphologyAndSentences = z.strictObject({
  builders: z.literal('morphology-and-sentences').describe('The Irish builders: a BÚNaMo-format morphology folder and a sentence bank in the Irish Sentence Bank format'),
  suite: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  language: z.string().min(2).describe('BCP 47 code of the language under test, e.g. cy, gd, gv, br, kw'),
  pivot: z.string().min(2).default('en').describe('Language of the sentence bank\'s translations'),
  morphology: z.string().min(1).describe('Folder in BÚNaMo format (noun/, adjective/, verb/, preposition/)'),
  sentences: z.string().min(1).describe('Folder with sentences.xml in the Irish Sentence Bank format'),
  licence: z.string().min(1).describe('Licence of the derived items, e.g. ODbL-1.0'),
  morphologyDataset: z.string().min(1).describe('Name items give in source.dataset for the morphology'),
  sentenceDataset: z.string().min(1).describe('Name items give in source.dataset for the sentences'),
  publicSources: z.array(z.string()).default([]).describe('Sentence source codes that may appear in public samples'),
  maxThirdPartyWords: z.number().int().positive().default(12),
});

const MinimalPairs = z.strictObject({
  builders: z.literal('minimal-pairs').describe('The English builders over BLiMP-format JSONL paradigms'),
  sourcesDir: z.string().min(1).optional().describe('Folder holding blimp/data/*.jsonl (default: --sources)'),
});

const Credit = z.strictObject({
  dataset: z.string().min(1), title: z.string().min(1), url: z.string().min(1), commit: z.string().optional(),
  licence: z.string().min(1), notice: z.string().min(1), obligations: z.string().min(1),
});

/** `paideia suites build --config FILE`: which builders to run over which sources, and their credits. */
export const BuildConfigSchema = z.strictObject({
  suites: z.array(z.discriminatedUnion('builders', [MorphologyAndSentences, MinimalPairs])).min(1),
  credits: z.array(Credit).default([]),
});

export type BuildConfig = z.infer<typeof BuildConfigSchema>;

/**
 * Read a build config (YAML or JSON). Folders are relative to the config file. Every problem is
 * reported at once with its line and field.
 */
export function loadBuildConfig(file: string): { builders: TestBuilder[]; credits: SourceCredit[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError([{ file, field: '--config', message: 'cannot read the build config' }]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length) {
    throw new ConfigError(doc.errors.map(e => ({ file, line: e.linePos?.[0]?.line, message: e.message.split('\n')[0]! })));
  }
  const parsed = BuildConfigSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i): ConfigIssue => {
      const node = doc.getIn(i.path as Array<string | number>, true) as { range?: [number, number] } | undefined;
      const line = node?.range ? lines.linePos(node.range[0]).line : undefined;
      return { file, ...(line ? { line } : {}), field: i.path.join('.') || undefined, message: i.message };
    }));
  }
  const here = (p: string) => (isAbsolute(p) ? p : resolve(dirname(file), p));
  const builders = parsed.data.suites.flatMap((s): TestBuilder[] => s.builders === 'minimal-pairs'
    ? createEnglishBuilders().map(b => (s.sourcesDir ? withSources(b, here(s.sourcesDir)) : b))
    : createIrishBuilders({
      suite: s.suite, language: s.language, pivot: s.pivot, bunamoDir: here(s.morphology), sentenceBankDir: here(s.sentences),
      licence: s.licence, bunamoDataset: s.morphologyDataset, sentenceDataset: s.sentenceDataset,
      publicSources: s.publicSources, maxThirdPartyWords: s.maxThirdPartyWords,
    }));
  return { builders, credits: parsed.data.credits };
}

function withSources(builder: TestBuilder, sourcesDir: string): TestBuilder {
  return { suite: builder.suite, test: builder.test, rule: builder.rule, build: ctx => builder.build({ ...ctx, sourcesDir }) };
}
