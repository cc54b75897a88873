/**
 * Which BLiMP paradigms become English items, and how they are named for learners.
 *
 * The rule keeps paradigms whose contrast is a grammar error learners of English make (agreement,
 * irregular forms, determiners, anaphors, existential "there", transitivity). It is written as an
 * exclusion so that a user's own paradigm files in BLiMP's format are used unless they declare a
 * phenomenon we know is not a learner error; every shipped paradigm passes it.
 */
export interface ParadigmSelection {
  /** `linguistics_term` values whose paradigms are left out, with the reason. */
  excludeTerms: Readonly<Record<string, string>>;
  /** Paradigm UIDs left out although their term is kept, with the reason. */
  excludeUids: Readonly<Record<string, string>>;
}

const SUBTLE = 'tests acceptability judgements rather than a form learners choose';

export const DEFAULT_SELECTION: ParadigmSelection = {
  excludeTerms: {
    island_effects: `extraction islands: ${SUBTLE}`,
    filler_gap_dependency: `filler-gap dependencies: ${SUBTLE}`,
    npi_licensing: `negative polarity items: ${SUBTLE}`,
    binding: `binding principles: ${SUBTLE}`,
    control_raising: `control and raising: ${SUBTLE}`,
    ellipsis: `ellipsis: ${SUBTLE}`,
  },
  excludeUids: {
    existential_there_quantifiers_2: 'its good sentences (e.g. "All convertibles weren\'t there existing.") are unnatural for learners',
    superlative_quantifiers_1: 'a semantic contrast (at least / more than), not a learner grammar error',
    superlative_quantifiers_2: 'a semantic contrast (at least / more than), not a learner grammar error',
    animate_subject_passive: 'an animacy (meaning) contrast, not a learner grammar error',
    animate_subject_trans: 'an animacy (meaning) contrast, not a learner grammar error',
  },
};

/** Why a paradigm is left out, or null when it is used. */
export function exclusionReason(uid: string, term: string, selection: ParadigmSelection = DEFAULT_SELECTION): string | null {
  return selection.excludeUids[uid] ?? selection.excludeTerms[term] ?? null;
}

/** Learner-facing names of the shipped paradigms; they describe the error, not the linguistics. */
const LABELS: Readonly<Record<string, string>> = {
  regular_plural_subject_verb_agreement_1: 'Subject-verb agreement: the verb form (he references / they reference)',
  regular_plural_subject_verb_agreement_2: 'Subject-verb agreement: singular or plural subject (the students perform)',
  irregular_plural_subject_verb_agreement_1: 'Subject-verb agreement with irregular plurals (those radii have)',
  distractor_agreement_relational_noun: 'Subject-verb agreement across "of" (a painting of those bikes is)',
  determiner_noun_agreement_1: 'this/that/these/those with singular or plural nouns',
  determiner_noun_agreement_irregular_1: 'this/these with irregular plurals (this cactus, those cacti)',
  irregular_past_participle_verbs: 'Irregular verbs: past simple, not past participle (she broke, not she broken)',
  irregular_past_participle_adjectives: 'Irregular past participles before nouns (the hidden offspring)',
  anaphor_number_agreement: 'Reflexive pronouns: singular or plural (herself / themselves)',
  anaphor_gender_agreement: 'Reflexive pronouns: herself, himself or itself',
  existential_there_quantifiers_1: 'There is/are with a, some, no (not each, every, most)',
  transitive: 'Verbs that cannot take an object',
  intransitive: 'Verbs that need an object',
};

const TERM_LABELS: Readonly<Record<string, string>> = {
  subject_verb_agreement: 'Subject-verb agreement',
  determiner_noun_agreement: 'Determiner-noun agreement',
  irregular_forms: 'Irregular forms',
  anaphor_agreement: 'Reflexive pronouns',
  quantifiers: 'Quantifiers',
  argument_structure: 'Verbs and their objects',
};

/** Learner-friendly label of a paradigm; a paradigm we do not know is named by its term and UID. */
export function topicLabel(uid: string, term: string): string {
  return LABELS[uid] ?? `${TERM_LABELS[term] ?? term.replace(/_/g, ' ')} (${uid.replace(/_/g, ' ')})`;
}
