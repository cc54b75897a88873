import type { Item } from '../../core/item.js';
import type { BuildContext, Shortfall, TestBuilder } from '../builder.js';
import { createRng, selectItems, shuffle, type Candidate, type StratumCount } from '../sampling.js';
import { slotValues, type BunamoEntry } from '../sources/bunamo.js';
import { renderParts, type BankSentence, type BankToken } from '../sources/sentence-bank.js';
import {
  DEFAULT_OPTIONS, baseItem, bump, loadBunamo, loadSentenceBank, missingSource, problemExclusions, sentenceSource, sentenceUse,
  type IrishBuildResult, type IrishOptions,
} from './common.js';
import { lenitePast, matchCase, readings } from './mutation.js';

/** One planted error: which token becomes what, and by which rule. */
export interface PlantedError {
  topic: 'noun-case' | 'verb-dependent' | 'typo';
  evidence: 'distractor-derived-unverified' | 'planted-typo';
  token: BankToken;
  wrong: string;
  /** BÚNaMo file and slot the wrong form came from (distractors only). */
  formSource?: { file: string; key: string };
  note: string;
}

// Plain toLowerCase: locale-aware casing could differ between ICU builds and break byte-identical rebuilds.
const lower = (s: string): string => s.toLowerCase();

/** BÚNaMo entries of one category by lower-cased lemma, so sentence-bank lemma links can find them. */
export function indexByLemma(entries: readonly BunamoEntry[], category: string): Map<string, BunamoEntry[]> {
  const out = new Map<string, BunamoEntry[]>();
  for (const e of entries) {
    if (e.category !== category) continue;
    const k = lower(e.lemma);
    out.set(k, [...(out.get(k) ?? []), e]);
  }
  return out;
}

function onlyEntry(token: BankToken, index: Map<string, BunamoEntry[]>): BunamoEntry | undefined {
  if (token.lemmas.length !== 1) return undefined;
  const found = index.get(lower(token.lemmas[0]!));
  return found && found.length === 1 ? found[0] : undefined;
}

/**
 * Nominative for genitive: the token is a form of a BÚNaMo noun whose (unmutated) stem is that
 * noun's genitive singular and no other form of it; it is replaced by the nominative singular with
 * the same initial mutation and capitalisation (sráide -> sráid, bhróige -> bhróg).
 */
export function nounCaseError(token: BankToken, nouns: Map<string, BunamoEntry[]>): PlantedError | undefined {
  const entry = onlyEntry(token, nouns);
  if (!entry) return undefined;
  const gen = slotValues(entry, 'sgGen').map(lower);
  const nom = slotValues(entry, 'sgNom');
  const others = new Set(entry.slots.filter(s => s.element !== 'sgGen').map(s => lower(s.value)));
  for (const r of readings(token.text)) {
    const stem = lower(r.stem);
    if (!gen.includes(stem) || others.has(stem) || !nom[0]) continue;
    // A prefix or lenition fits only the initial it was made for.
    if (r.mutation !== 'none' && lower(nom[0])[0] !== stem[0]) return undefined;
    const wrong = r.apply(matchCase(r.stem, nom[0]));
    if (wrong === token.text) return undefined;
    return {
      topic: 'noun-case', evidence: 'distractor-derived-unverified', token, wrong, formSource: { file: entry.file, key: 'sgNom' },
      note: `Nominative singular "${nom[0]}" (BÚNaMo ${entry.file}) put where the sentence has the genitive singular "${token.text}".`,
    };
  }
  return undefined;
}

const DEPENDENT_TENSES = ['Past', 'Pres'] as const;

/**
 * Independent form after a particle: the token is a form of a BÚNaMo verb whose stem is a
 * dependent form (past or present) that differs from the independent one and is no independent
 * form of any tense; it is replaced by the independent form, lenited as the independent past is
 * (an bhfaca -> an chonaic, ní raibh -> ní bhí, an bhfuil -> an tá).
 */
export function verbDependentError(token: BankToken, verbs: Map<string, BunamoEntry[]>): PlantedError | undefined {
  const entry = onlyEntry(token, verbs);
  if (!entry) return undefined;
  const indepAll = new Set(entry.slots.filter(s => s.element === 'tenseForm' && s.attributes.dependency === 'Indep').map(s => lower(s.value)));
  const form = (tense: string, dep: string, person: string): string[] =>
    entry.slots
      .filter(s => s.element === 'tenseForm' && s.attributes.tense === tense && s.attributes.dependency === dep && s.attributes.person === person)
      .map(s => s.value);
  for (const r of readings(token.text)) {
    const stem = lower(r.stem);
    if (indepAll.has(stem)) continue;
    for (const slot of entry.slots) {
      const a = slot.attributes;
      if (slot.element !== 'tenseForm' || a.dependency !== 'Dep' || lower(slot.value) !== stem) continue;
      if (!DEPENDENT_TENSES.includes(a.tense as (typeof DEPENDENT_TENSES)[number])) continue;
      const indep = form(a.tense!, 'Indep', a.person!);
      if (!indep[0] || indep.map(lower).includes(stem)) continue;
      const plain = matchCase(r.stem, indep[0]);
      const wrong = a.tense === 'Past' ? lenitePast(plain) : plain;
      if (wrong === token.text) continue;
      return {
        topic: 'verb-dependent', evidence: 'distractor-derived-unverified', token, wrong,
        formSource: { file: entry.file, key: `${a.tense}.Indep.${a.person}` },
        note: `Independent ${a.tense === 'Past' ? 'past' : 'present'} form "${wrong}" (BÚNaMo ${entry.file}) put where the sentence has the dependent form "${token.text}".`,
      };
    }
  }
  return undefined;
}

const TYPO_VOWELS = /[aeiouáéíóú]/;

/**
 * One vowel doubled in one word, chosen by a generator seeded with the build seed and the sentence
 * key. Vowels, not consonants, because a doubled consonant often makes a real word (bean -> beann);
 * the result must also not be any word form the sources know.
 */
export function plantTypo(sentence: BankSentence, known: ReadonlySet<string>, seed: number, salt: string): PlantedError | undefined {
  const rng = createRng(seed, salt, 'typo', sentence.file, String(sentence.index));
  const words = sentence.tokens.filter(t => /^\p{L}{4,}$/u.test(t.text));
  for (const token of shuffle(words, rng)) {
    const positions = [...token.text].map((c, i) => (TYPO_VOWELS.test(c) ? i : -1)).filter(i => i >= 0);
    for (const i of shuffle(positions, rng)) {
      const chars = [...token.text];
      const wrong = [...chars.slice(0, i + 1), chars[i]!, ...chars.slice(i + 1)].join('');
      if (known.has(lower(wrong))) continue;
      return { topic: 'typo', evidence: 'planted-typo', token, wrong, note: `Letter "${chars[i]}" doubled in "${token.text}" by script.` };
    }
  }
  return undefined;
}

export const TUTOR_RULE =
  'A learner\'s sentence with one error or none, from the Irish Sentence Bank (sentences of at least 3 words; third-party ' +
  'sentences only up to 12 words and never public). About one third of items have no error: the original sentence, ' +
  'evidence `corpus-reference`. The rest carry one error by one of three rules, spread evenly: ' +
  '(1) `noun-case`, evidence `distractor-derived-unverified`: a token linked to a BÚNaMo noun whose unmutated stem is that noun\'s ' +
  'genitive singular and no other form of it is replaced by the nominative singular with the same initial mutation (the nominative ' +
  'where the genitive is required); ' +
  '(2) `verb-dependent`, evidence `distractor-derived-unverified`: a token linked to a BÚNaMo verb whose stem is a past or present ' +
  'dependent form that differs from the independent form is replaced by the independent form, lenited as the independent past is ' +
  '(the independent form after a particle that needs the dependent one: an bhfaca -> an chonaic); ' +
  '(3) `typo`, evidence `planted-typo`: one vowel doubled in one word of 4+ letters, chosen by a generator seeded from the build seed ' +
  'and the sentence, rejected if the result is a known word form of either source. ' +
  'Tokens linked to several lemmas, lemmas with several BÚNaMo entries and substitutions whose wrong word occurs twice in the ' +
  'sentence are not used. One item per sentence. `accepted` and `answer.corrected_sentence` are the original sentence; ' +
  '`answer.wrong_span` is the substituted word and `answer.correction` the original word.';

/** The `tutor_accuracy` builder over the sentence bank, with BÚNaMo as the source of real wrong forms. */
export function tutorAccuracyBuilder(options: Partial<IrishOptions> = {}): TestBuilder {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const test = 'tutor_accuracy';
  return {
    suite: o.suite,
    test,
    rule: TUTOR_RULE,
    build: function buildTutorAccuracy(ctx: BuildContext): IrishBuildResult {
      const bank = loadSentenceBank(ctx, o);
      if (!bank.read.found) {
        return { items: [], shortfalls: [missingSource(test, ctx.targetPerTest, 'Irish Sentence Bank', bank.dir, 'one or more XML files of <sentence> records')] };
      }
      const skipped = new Map<string, number>();
      const shortfalls: Shortfall[] = [];
      problemExclusions([...bank.read.problems], skipped);
      const bunamo = loadBunamo(ctx, o);
      if (!bunamo.read.found) {
        const wanted = Math.round(((ctx.targetPerTest - Math.round(ctx.targetPerTest / 3)) * 2) / 3);
        shortfalls.push({ test, wanted, got: 0, reason: `no BÚNaMo folder at ${bunamo.dir}: noun-case and verb-dependent errors cannot be made; typos take their share.` });
      }
      const nouns = indexByLemma(bunamo.read.entries, 'noun');
      const verbs = indexByLemma(bunamo.read.entries, 'verb');
      const known = new Set<string>();
      for (const s of bank.read.sentences) for (const t of s.tokens) known.add(lower(t.text));
      for (const e of bunamo.read.entries) {
        known.add(lower(e.lemma));
        for (const sl of e.slots) known.add(lower(sl.value));
      }

      const errors: Candidate[] = [];
      const clean: Candidate[] = [];
      for (const s of bank.read.sentences) {
        const use = sentenceUse(o, s, 3);
        if (!use.ok) {
          bump(skipped, use.reason!);
          continue;
        }
        const group = `${s.file}#${s.index}`;
        const planted: PlantedError[] = [];
        for (const t of s.tokens) {
          const e = nounCaseError(t, nouns) ?? verbDependentError(t, verbs);
          if (e) planted.push(e);
        }
        const typo = plantTypo(s, known, ctx.seed, o.suite);
        if (typo) planted.push(typo);
        for (const p of planted) {
          const learner = renderParts(s.parts, new Map([[p.token.slot, p.wrong]]));
          if (learner.split(p.wrong).length !== 2) {
            bump(skipped, 'planted errors whose wrong word occurs more than once in the sentence');
            continue;
          }
          // Spread over nouns and verb forms, so the sample is not twenty times "an tá".
          const spread = p.formSource ? `${p.formSource.file}#${p.formSource.key}` : undefined;
          errors.push({ item: errorItem(o, test, s, p, learner), group, publicOk: use.publicOk, ...(spread ? { spread } : {}) });
        }
        clean.push({ item: cleanItem(o, test, s), group, publicOk: use.publicOk });
      }

      // Errors first, then the clean third from sentences the errors did not use (one item per sentence).
      const noneShare = Math.round(ctx.targetPerTest / 3);
      const errorTarget = ctx.targetPerTest - noneShare;
      const publicNone = Math.round(Math.min(20, ctx.targetPerTest) / 3);
      const err = selectItems(errors, { suite: o.suite, test, seed: ctx.seed, target: errorTarget, publicCount: Math.min(20, ctx.targetPerTest) - publicNone, exclusions: skipped });
      const groupOf = new Map(errors.map(c => [c.item.id, c.group]));
      const used = new Set(err.items.map(i => groupOf.get(i.id)));
      const noneTarget = err.items.length === errorTarget ? noneShare : Math.round(err.items.length / 2);
      const none = selectItems(
        clean.filter(c => !used.has(c.group)),
        { suite: o.suite, test, seed: ctx.seed, target: noneTarget, publicCount: publicNone },
      );
      const items = [...err.items, ...none.items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const strata: StratumCount[] = [...err.strata, ...none.strata];
      return { items, shortfalls: [...shortfalls, ...err.shortfalls, ...none.shortfalls], strata, exclusions: err.exclusions };
    },
  };
}

function errorItem(o: IrishOptions, test: string, s: BankSentence, p: PlantedError, learner: string): Item {
  return baseItem(o, {
    // Distractor ids name the token (a sentence may hold two genitives); the typo's word depends on the seed, so its id does not.
    id: `${o.suite}/${test}/${s.file}#${s.index}/${p.topic}${p.topic === 'typo' ? '' : `/slot${p.token.slot}`}`,
    test,
    input: { sentence: learner, language: o.language },
    accepted: [s.text],
    extra: { answer: { has_error: true, wrong_span: p.wrong, correction: p.token.text, corrected_sentence: s.text } },
    source: sentenceSource(o, s, {
      token: `slot ${p.token.slot}`,
      ...(p.formSource ? { form: { dataset: o.bunamoDataset, ...p.formSource } } : {}),
    }),
    evidence: p.evidence,
    topic: p.topic,
    notes: p.note,
  });
}

function cleanItem(o: IrishOptions, test: string, s: BankSentence): Item {
  return baseItem(o, {
    id: `${o.suite}/${test}/${s.file}#${s.index}/no-error`,
    test,
    input: { sentence: s.text, language: o.language },
    accepted: [s.text],
    extra: { answer: { has_error: false, wrong_span: null, correction: null, corrected_sentence: s.text } },
    source: sentenceSource(o, s),
    evidence: 'corpus-reference',
    topic: 'no-error',
  });
}
