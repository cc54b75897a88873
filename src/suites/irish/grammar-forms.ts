import type { BuildContext, TestBuilder } from '../builder.js';
import { selectItems, type Candidate } from '../sampling.js';
import { slotValues, type BunamoEntry, type BunamoSlot } from '../sources/bunamo.js';
import { DEFAULT_OPTIONS, baseItem, bump, loadBunamo, missingSource, problemExclusions, type IrishBuildResult, type IrishOptions } from './common.js';

type Pos = 'noun' | 'adjective' | 'verb' | 'preposition';

/** One exercise slot: which forms of which entry answer which question. */
export interface FormSlot {
  entry: BunamoEntry;
  pos: Pos;
  /** BÚNaMo element, or `Tense.Dependency.Person` / `Mood.Person` for verb forms. */
  form: string;
  formLabel: string;
  forms: string[];
  gender?: 'masc' | 'fem';
}

const NOUN: Record<string, string> = { sgGen: 'genitive singular', plNom: 'nominative plural', plGen: 'genitive plural' };
// BÚNaMo stores the masculine genitive unlenited (móir); in use it is always lenited (an fhir mhóir).
const ADJECTIVE: Record<string, string> = {
  sgGenMasc: 'genitive singular masculine (without initial mutation)',
  sgGenFem: 'genitive singular feminine',
  plNom: 'nominative plural',
  graded: 'comparative',
};
const PREPOSITION: Record<string, string> = {
  sg1: '1st person singular', sg2: '2nd person singular', sg3Masc: '3rd person singular masculine', sg3Fem: '3rd person singular feminine',
  pl1: '1st person plural', pl2: '2nd person plural', pl3: '3rd person plural',
};
const TENSE: Record<string, string> = {
  Past: 'past tense', PastCont: 'past habitual tense', Pres: 'present tense', PresCont: 'present habitual tense',
  Fut: 'future tense', Cond: 'conditional mood',
};
const PERSON: Record<string, string> = {
  Base: 'analytic form (used with a separate subject)', Sg1: '1st person singular', Sg2: '2nd person singular',
  Sg3: '3rd person singular', Pl1: '1st person plural', Pl2: '2nd person plural', Pl3: '3rd person plural',
  Auto: 'autonomous (impersonal) form',
};
const VERB_WORDS: Record<string, string> = { verbalNoun: 'verbal noun', verbalAdjective: 'verbal adjective' };

export const SKIP = {
  guillemet: 'entries whose forms contain « (a non-standard marker inside hyphenated words)',
  lemma: 'slots with a form equal to the lemma (copying the prompt would score)',
  dependent: 'dependent-form slots identical to the independent form (a duplicate exercise)',
  notCovered: 'slots this test does not ask for (subjunctive, vocative, dative, counting form, abstract noun, nominative singular)',
  empty: 'slots with no form',
  homograph: 'slots of homograph entries whose forms differ (the lemma alone cannot say which is meant)',
} as const;

/** `Past.Indep.Pl1` for a tense form, `Imper.Sg2` for a mood form, the element name otherwise. */
export function verbFormKey(s: BunamoSlot): string {
  const a = s.attributes;
  if (s.element === 'tenseForm') return `${a.tense}.${a.dependency}.${a.person}`;
  if (s.element === 'moodForm') return `${a.mood}.${a.person}`;
  return s.element;
}

function gender(entry: BunamoEntry): 'masc' | 'fem' | undefined {
  const g = entry.slots.find(s => s.element === 'sgNom')?.attributes.gender;
  return g === 'masc' || g === 'fem' ? g : undefined;
}

/** Every slot of an entry this test can ask about, before the triviality and duplicate checks. */
export function entrySlots(entry: BunamoEntry, skipped: Map<string, number>): FormSlot[] {
  const pos = entry.category as Pos;
  const out: FormSlot[] = [];
  const add = (form: string, formLabel: string, forms: string[], g?: 'masc' | 'fem'): void => {
    if (forms.length === 0) bump(skipped, SKIP.empty);
    else out.push({ entry, pos, form, formLabel, forms, ...(g ? { gender: g } : {}) });
  };
  const seen = new Set<string>();
  if (pos === 'noun' || pos === 'adjective' || pos === 'preposition') {
    const table = pos === 'noun' ? NOUN : pos === 'adjective' ? ADJECTIVE : PREPOSITION;
    for (const s of entry.slots) {
      if (seen.has(s.element)) continue;
      seen.add(s.element);
      const label = table[s.element];
      if (label === undefined) {
        if (s.element !== 'sgNom') bump(skipped, SKIP.notCovered);
        continue;
      }
      add(s.element, label, slotValues(entry, s.element), pos === 'noun' ? gender(entry) : undefined);
    }
    return out;
  }
  if (pos !== 'verb') return out;
  for (const s of entry.slots) {
    const a = s.attributes;
    const key = verbFormKey(s);
    if (seen.has(key)) continue;
    seen.add(key);
    const values = entry.slots
      .filter(t => verbFormKey(t) === key)
      .map(t => t.value)
      .filter((v, i, all) => v !== '' && all.indexOf(v) === i);
    if (s.element in VERB_WORDS) add(key, VERB_WORDS[s.element]!, values);
    else if (s.element === 'tenseForm' && TENSE[a.tense ?? ''] && PERSON[a.person ?? '']) {
      const dep = a.dependency === 'Dep' ? 'dependent form' : 'independent form';
      // Verb forms are stored unmutated (conaic for chonaic, geobhaidh for gheobhaidh); say so in the question.
      add(key, `${TENSE[a.tense!]}, ${dep}, ${PERSON[a.person!]} (without initial mutation)`, values);
    } else if (s.element === 'moodForm' && a.mood === 'Imper' && PERSON[a.person ?? '']) {
      add(key, `imperative, ${a.person === 'Base' ? 'analytic form (3rd person, used with a separate subject)' : PERSON[a.person!]}`, values);
    } else bump(skipped, SKIP.notCovered);
  }
  // A dependent form is only worth asking for when it differs from the independent one (bí: raibh, tá: fuil).
  return out.filter(slot => {
    if (!/\.Dep\./.test(slot.form)) return true;
    const indep = out.find(x => x.form === slot.form.replace('.Dep.', '.Indep.'));
    if (indep && indep.forms.join('\u0000') === slot.forms.join('\u0000')) {
      bump(skipped, SKIP.dependent);
      return false;
    }
    return true;
  });
}

/** Usable slots of all entries, with the reasons for every slot left out. */
export function formSlots(entries: readonly BunamoEntry[], skipped: Map<string, number>): FormSlot[] {
  const slots: FormSlot[] = [];
  for (const entry of entries) {
    if (entry.lemma.includes('«') || entry.slots.some(s => s.value.includes('«'))) {
      bump(skipped, SKIP.guillemet);
      continue;
    }
    for (const slot of entrySlots(entry, skipped)) {
      const lemma = entry.lemma.toLowerCase();
      if (slot.forms.some(f => f.toLowerCase() === lemma)) bump(skipped, SKIP.lemma);
      else slots.push(slot);
    }
  }
  // Homographs (the full BÚNaMo has e.g. cion_masc3_grá and cion_masc3_cion): the input names only the
  // lemma, part of speech and gender, so keep a slot only if every such entry gives the same forms.
  const groups = new Map<string, FormSlot[]>();
  for (const s of slots) {
    const k = [s.pos, s.entry.lemma, s.gender ?? '', s.form].join('\u0000');
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const out: FormSlot[] = [];
  for (const group of groups.values()) {
    const distinct = new Set(group.map(g => g.forms.join('\u0000')));
    if (distinct.size > 1) bump(skipped, SKIP.homograph, group.length);
    else out.push(group[0]!);
  }
  return out;
}

export const GRAMMAR_FORMS_RULE =
  'One item per usable slot of a BÚNaMo entry: nouns (genitive singular, nominative plural, genitive plural; with the noun\'s gender), ' +
  'adjectives (genitive singular masculine and feminine, nominative plural, comparative), verbs (verbal noun, verbal adjective, ' +
  'every tense form by tense, dependency and person, and the imperative) and prepositional pronouns (by person). ' +
  '`accepted` is every form the entry lists in that slot, copied unchanged (feic has two verbal nouns, so both are accepted). ' +
  'BÚNaMo stores forms without initial mutation; verb forms and the masculine genitive adjective say so in `formLabel`. ' +
  'Left out: entries containing «, slots with no form, slots whose form equals the lemma (the copy baseline would score: e.g. the ' +
  'unmutated past of regular verbs and the 2nd person singular imperative), dependent forms identical to the independent form, ' +
  'the subjunctive and rare slots, and homographs that disagree. Topic = part of speech; the sample is spread evenly over the four ' +
  'parts of speech and, within one, over as many lemmas as possible. Evidence `bunamo-form`.';

/** The `grammar_forms` builder over a BÚNaMo folder. */
export function grammarFormsBuilder(options: Partial<IrishOptions> = {}): TestBuilder {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const test = 'grammar_forms';
  return {
    suite: o.suite,
    test,
    rule: GRAMMAR_FORMS_RULE,
    build: function buildGrammarForms(ctx: BuildContext): IrishBuildResult {
      const { dir, read } = loadBunamo(ctx, o);
      if (!read.found) {
        return { items: [], shortfalls: [missingSource(test, ctx.targetPerTest, 'BÚNaMo', dir, 'noun/, adjective/, verb/ and preposition/ with one XML file per lemma')] };
      }
      const skipped = new Map<string, number>();
      problemExclusions(read.problems, skipped);
      const candidates: Candidate[] = formSlots(read.entries, skipped).map(s => ({
        item: baseItem(o, {
          id: `${o.suite}/${test}/${s.entry.file}#${s.form}`,
          test,
          input: { lemma: s.entry.lemma, pos: s.pos, form: s.form, formLabel: s.formLabel, ...(s.gender ? { gender: s.gender } : {}) },
          accepted: s.forms,
          source: { dataset: o.bunamoDataset, file: s.entry.file, key: s.form },
          evidence: 'bunamo-form',
          topic: s.pos,
        }),
        spread: s.entry.file,
      }));
      const sel = selectItems(candidates, { suite: o.suite, test, seed: ctx.seed, target: ctx.targetPerTest, exclusions: skipped });
      return { items: sel.items, shortfalls: sel.shortfalls, strata: sel.strata, exclusions: sel.exclusions };
    },
  };
}
