import type { BuildContext, TestBuilder } from '../builder.js';
import { selectItems, type Candidate } from '../sampling.js';
import type { BankSentence } from '../sources/sentence-bank.js';
import {
  DEFAULT_OPTIONS, baseItem, bump, lengthBand, loadSentenceBank, missingSource, problemExclusions, sentenceSource, sentenceUse,
  type IrishBuildResult, type IrishOptions,
} from './common.js';

const EDITORIAL = /[[\]{}/]/;

/** Sentences fit to translate, each with its word count; every other sentence is counted under a reason. */
function usableSentences(o: IrishOptions, sentences: readonly BankSentence[], skipped: Map<string, number>) {
  const out: Array<{ s: BankSentence; words: number; publicOk: boolean }> = [];
  for (const s of sentences) {
    const use = sentenceUse(o, s, 2);
    if (!use.ok) bump(skipped, use.reason!);
    else if (!s.translation || !s.text) bump(skipped, 'sentences without an original or a translation');
    // [plur.], {thank you} and a/b are notes for readers, not translation; as a chrF reference they would penalise good answers.
    else if (EDITORIAL.test(s.translation)) bump(skipped, 'translations with editorial notes in [ ] or { } or alternatives with /');
    else out.push({ s, words: use.words, publicOk: use.publicOk });
  }
  return out;
}

const BANDS = 'short = up to 5 words, medium = 6 to 10, long = 11 or more, counting the tokens of the Irish original that contain a letter';

const SENTENCE_FILTERS =
  'Left out: sentences of fewer than 2 words, sentences whose translation carries editorial notes ([plur.], {thank you}) or ' +
  'alternatives (a/b), and sentences from third-party books or sites longer than 12 words (the database licence does not ' +
  'cover copyright in the sentences, so they are used only as short examples). Only sentences from `potaL` may enter the ' +
  'public sample; the others stay private. A translation split over two elements (two records) is joined with one space.';

export const TRANSLATION_RULE =
  'From the Irish Sentence Bank, each usable sentence gives one item in one direction: ga->en with the Irish original as `input.text` ' +
  'and the English translation as the reference, or en->ga the other way round (one direction per sentence, chosen by the seeded ' +
  `sample). Texts are copied from the record, entities decoded. ${SENTENCE_FILTERS} Topic = direction and length band ` +
  `(e.g. \`ga-en-short\`; ${BANDS}); the sample is spread evenly over the six topics. Items keep the sentence's own source code and ` +
  'sourceBlurb. Evidence `corpus-reference`.';

export const ROUND_TRIP_RULE =
  'From the Irish Sentence Bank: the Irish original is `input.text`, the model translates it into English and back, and the reference ' +
  'is the original itself; the record\'s English translation is kept as `pivot_reference` for the gold baseline. ' +
  `${SENTENCE_FILTERS} Topic = length band (${BANDS}), sampled evenly. Evidence \`corpus-reference\`.`;

function noSentences(test: string, ctx: BuildContext, dir: string): IrishBuildResult {
  return { items: [], shortfalls: [missingSource(test, ctx.targetPerTest, 'Irish Sentence Bank', dir, 'one or more XML files of <sentence> records')] };
}

/** The `translation` builder: both directions between the language under test and the pivot. */
export function translationBuilder(options: Partial<IrishOptions> = {}): TestBuilder {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const test = 'translation';
  return {
    suite: o.suite,
    test,
    rule: TRANSLATION_RULE,
    build: function buildTranslation(ctx: BuildContext): IrishBuildResult {
      const { dir, read } = loadSentenceBank(ctx, o);
      if (!read.found) return noSentences(test, ctx, dir);
      const skipped = new Map<string, number>();
      problemExclusions(read.problems, skipped);
      const candidates: Candidate[] = [];
      for (const { s, words, publicOk } of usableSentences(o, read.sentences, skipped)) {
        const band = lengthBand(words);
        for (const [from, to, text, reference] of [
          [o.language, o.pivot, s.text, s.translation],
          [o.pivot, o.language, s.translation, s.text],
        ] as const) {
          candidates.push({
            item: baseItem(o, {
              id: `${o.suite}/${test}/${s.file}#${s.index}/${from}-${to}`,
              test,
              input: { text, from, to },
              references: [reference],
              source: sentenceSource(o, s),
              evidence: 'corpus-reference',
              topic: `${from}-${to}-${band}`,
            }),
            group: `${s.file}#${s.index}`,
            publicOk,
          });
        }
      }
      const sel = selectItems(candidates, { suite: o.suite, test, seed: ctx.seed, target: ctx.targetPerTest, exclusions: skipped });
      return { items: sel.items, shortfalls: sel.shortfalls, strata: sel.strata, exclusions: sel.exclusions };
    },
  };
}

/** The `round_trip` builder: language under test -> pivot -> back, marked against the original. */
export function roundTripBuilder(options: Partial<IrishOptions> = {}): TestBuilder {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const test = 'round_trip';
  return {
    suite: o.suite,
    test,
    rule: ROUND_TRIP_RULE,
    build: function buildRoundTrip(ctx: BuildContext): IrishBuildResult {
      const { dir, read } = loadSentenceBank(ctx, o);
      if (!read.found) return noSentences(test, ctx, dir);
      const skipped = new Map<string, number>();
      problemExclusions(read.problems, skipped);
      const candidates: Candidate[] = usableSentences(o, read.sentences, skipped).map(({ s, words, publicOk }) => ({
        item: baseItem(o, {
          id: `${o.suite}/${test}/${s.file}#${s.index}`,
          test,
          input: { text: s.text, from: o.language, via: o.pivot },
          references: [s.text],
          extra: { pivot_reference: s.translation },
          source: sentenceSource(o, s),
          evidence: 'corpus-reference',
          topic: lengthBand(words),
        }),
        publicOk,
      }));
      const sel = selectItems(candidates, { suite: o.suite, test, seed: ctx.seed, target: ctx.targetPerTest, exclusions: skipped });
      return { items: sel.items, shortfalls: sel.shortfalls, strata: sel.strata, exclusions: sel.exclusions };
    },
  };
}
