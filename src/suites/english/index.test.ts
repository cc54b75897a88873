import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, ItemSchema, type Item } from '../../core/index.js';
import type { BuildContext, BuildResult, TestBuilder } from '../builder.js';
import type { BuildNotes } from '../sampling.js';
import { readBlimp, type BlimpRecord } from '../sources/blimp.js';
import { BLANK, EXERCISE_INSTRUCTIONS, EXERCISE_L1S, createEnglishBuilders, englishBuilders, type TutorAnswer } from './index.js';

const SOURCES = 'data/sources';
const SEED = 39;
const PARADIGMS = 13;
const TARGET = 20 * PARADIGMS;

const [tutor, exercises] = englishBuilders as [TestBuilder, TestBuilder];
const records = new Map<string, BlimpRecord>();
for (const p of readBlimp(SOURCES)) for (const r of p.records) records.set(`${p.file}|pairID ${r.pairID}`, r);

function recordOf(item: Item): BlimpRecord {
  const source = item.source as { file: string; key: string };
  const found = records.get(`${source.file}|${source.key}`);
  if (!found) throw new Error(`no source record for ${item.id}`);
  return found;
}

const build = async (b: TestBuilder, ctx: Partial<BuildContext> = {}): Promise<BuildResult> =>
  b.build({ sourcesDir: SOURCES, seed: SEED, targetPerTest: TARGET, ...ctx });

function countBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of xs) out.set(key(x), (out.get(key(x)) ?? 0) + 1);
  return out;
}

function spread(counts: Map<string, number>): number {
  return Math.max(...counts.values()) - Math.min(...counts.values());
}

let tutorResult: BuildResult;
let exerciseResult: BuildResult;
beforeAll(async () => {
  tutorResult = await build(tutor);
  exerciseResult = await build(exercises);
});

const made: string[] = [];
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })));

/** A sources folder holding the given BLiMP-format files. */
function sourcesWith(files: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'paideia-english-'));
  made.push(root);
  mkdirSync(join(root, 'blimp', 'data'), { recursive: true });
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(root, 'blimp', 'data', name), `${lines.join('\n')}\n`);
  return root;
}

const realLines = (uid: string, n: number) =>
  readFileSync(join(SOURCES, 'blimp', 'data', `${uid}.jsonl`), 'utf8').split('\n').slice(0, n);

describe('englishBuilders', () => {
  it('are the two English tests, each with a rule', () => {
    expect(englishBuilders.map(b => [b.suite, b.test])).toEqual([
      ['english', 'tutor_accuracy'],
      ['english', 'exercises'],
    ]);
    for (const b of englishBuilders) expect(b.rule.length).toBeGreaterThan(50);
  });

  it('build the target from the shipped sources with no shortfall', () => {
    expect(tutorResult.items).toHaveLength(TARGET);
    expect(exerciseResult.items).toHaveLength(TARGET);
    expect(tutorResult.shortfalls).toEqual([]);
    expect(exerciseResult.shortfalls).toEqual([]);
  });

  it('emit items that pass ItemSchema and carry the suite-wide fields', () => {
    for (const item of [...tutorResult.items, ...exerciseResult.items]) {
      const parsed = ItemSchema.safeParse(item);
      expect(parsed.success, `${item.id}: ${parsed.error?.message}`).toBe(true);
      expect(item).toMatchObject({
        language: 'en',
        licence: 'CC-BY-4.0',
        evidence: 'blimp-minimal-pair',
        visibility: 'private',
        contamination: 'public-source',
        human_checked: false,
        source: { dataset: 'BLiMP', file: `data/${item.topic}.jsonl` },
      });
      expect(typeof item.topic_label).toBe('string');
      expect(item.notes).toMatch(/odd in meaning/);
    }
  });

  it('derive ids from the source key, unique within each test', () => {
    for (const { items } of [tutorResult, exerciseResult]) {
      expect(new Set(items.map(i => i.id)).size).toBe(items.length);
      for (const item of items) {
        const pairID = recordOf(item).pairID;
        const suffix = item.test === 'exercises' ? `:${item.l1}` : '';
        expect(item.id).toBe(`blimp:${item.topic}:${pairID}:${item.test}${suffix}`);
      }
    }
  });

  it('spread items evenly over the 13 paradigms', () => {
    for (const { items } of [tutorResult, exerciseResult]) {
      const byTopic = countBy(items, i => i.topic!);
      expect(byTopic.size).toBe(PARADIGMS);
      expect(spread(byTopic)).toBe(0);
    }
  });

  it('draw different pairs for the two tests', () => {
    const tutorPairs = new Set(tutorResult.items.map(i => `${i.topic}:${recordOf(i).pairID}`));
    expect(exerciseResult.items.filter(i => tutorPairs.has(`${i.topic}:${recordOf(i).pairID}`))).toEqual([]);
  });

  it('rebuild identically from the same sources and seed, and differently from another seed', async () => {
    for (const [b, first] of [
      [tutor, tutorResult],
      [exercises, exerciseResult],
    ] as const) {
      expect(JSON.stringify(await build(b))).toBe(JSON.stringify(first));
      const other = await build(b, { seed: SEED + 1 });
      expect(other.items.map(i => i.id)).not.toEqual(first.items.map(i => i.id));
    }
  });

  it('give an id the same content in a smaller build', async () => {
    for (const [b, big] of [
      [tutor, tutorResult],
      [exercises, exerciseResult],
    ] as const) {
      const byId = new Map(big.items.map(i => [i.id, JSON.stringify(i)]));
      const small = await build(b, { targetPerTest: 2 * PARADIGMS });
      const shared = small.items.filter(i => byId.has(i.id));
      // Tutor ids carry no L1, so every small-build item is in the big build; exercise ids carry the dealt L1.
      expect(shared.length).toBe(b === tutor ? small.items.length : shared.length);
      expect(shared.length).toBeGreaterThan(0);
      for (const item of shared) expect(JSON.stringify(item)).toBe(byId.get(item.id));
    }
  });
});

describe('tutor_accuracy', () => {
  const answer = (item: Item) => item.answer as TutorAnswer;

  it('leaves about one third of the sentences without an error, round(q/3) in each paradigm', () => {
    const clean = tutorResult.items.filter(i => !answer(i).has_error);
    expect(clean.length / tutorResult.items.length).toBeGreaterThan(0.3);
    expect(clean.length / tutorResult.items.length).toBeLessThan(0.37);
    const perTopic = countBy(clean, i => i.topic!);
    for (const [, n] of countBy(tutorResult.items, i => i.topic!)) expect(n).toBe(20);
    for (const n of perTopic.values()) expect(n).toBe(Math.round(20 / 3));
  });

  it("shows sentence_bad with its one-span correction, or another pair's sentence_good unchanged", () => {
    for (const item of tutorResult.items) {
      const r = recordOf(item);
      const a = answer(item);
      expect(item.accepted).toEqual([r.sentence_good]);
      expect(a.corrected_sentence).toBe(r.sentence_good);
      expect(item.input).toEqual({ sentence: a.has_error ? r.sentence_bad : r.sentence_good, language: 'en' });
      if (!a.has_error) {
        expect([a.wrong_span, a.correction]).toEqual([null, null]);
        continue;
      }
      // Putting the correction in place of the wrong span, at one of its occurrences, gives the good sentence.
      const sentence = r.sentence_bad;
      const spans: string[] = [];
      for (let at = sentence.indexOf(a.wrong_span!); at >= 0; at = sentence.indexOf(a.wrong_span!, at + 1)) {
        spans.push(sentence.slice(0, at) + a.correction + sentence.slice(at + a.wrong_span!.length));
      }
      expect(spans, item.id).toContain(r.sentence_good);
      expect(a.wrong_span).not.toBe(a.correction);
    }
  });

  it('says on argument-structure error items that BLiMP swaps the verb, and only there', () => {
    for (const item of tutorResult.items.filter(i => answer(i).has_error)) {
      expect(item.notes!.includes('swaps the verb'), item.id).toBe(item.phenomenon === 'argument_structure');
    }
  });

  it("carry the learner's L1, within one item of even inside every paradigm, and the same L1 in a smaller build", async () => {
    const byL1 = countBy(tutorResult.items, i => i.l1 ?? 'none');
    expect([...byL1.keys()].sort()).toEqual(['es', 'ja', 'pt', 'vi']);
    // one paradigm's odd items fall on a seeded L1, so the totals differ by at most one per paradigm
    expect(spread(byL1)).toBeLessThanOrEqual(Math.ceil(countBy(tutorResult.items, i => i.topic!).size / 2));
    for (const [topic] of countBy(tutorResult.items, i => i.topic!)) {
      expect(spread(countBy(tutorResult.items.filter(i => i.topic === topic), i => i.l1!)), topic).toBeLessThanOrEqual(1);
    }
    const small = await build(tutor, { targetPerTest: 40 });
    const l1Of = new Map(tutorResult.items.map(i => [i.id, i.l1]));
    for (const item of small.items) expect(item.l1, item.id).toBe(l1Of.get(item.id));
  });

  it('never uses one pair both with and without an error', () => {
    const pairs = tutorResult.items.map(i => `${i.topic}:${recordOf(i).pairID}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it("marks 'Paula reference Robert.' as the error 'reference' -> 'references'", async () => {
    // A one-pair folder: the first pair of a paradigm's seeded order always carries the error.
    const root = sourcesWith({ 'regular_plural_subject_verb_agreement_1.jsonl': realLines('regular_plural_subject_verb_agreement_1', 1) });
    const { items, shortfalls } = await tutor.build({ sourcesDir: root, seed: SEED, targetPerTest: 1 });
    expect(shortfalls).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: 'blimp:regular_plural_subject_verb_agreement_1:0:tutor_accuracy',
      input: { sentence: 'Paula reference Robert.', language: 'en' },
      accepted: ['Paula references Robert.'],
      answer: { has_error: true, wrong_span: 'reference', correction: 'references', corrected_sentence: 'Paula references Robert.' },
      source: { dataset: 'BLiMP', file: 'data/regular_plural_subject_verb_agreement_1.jsonl', key: 'pairID 0' },
    });
  });
});

describe('exercises', () => {
  const input = (item: Item) => item.input as { sentence: string; options: string[]; instruction: string; l1: string };

  it('offer the two forms, one of them accepted, and restore a sentence of the pair with either', () => {
    for (const item of exerciseResult.items) {
      const r = recordOf(item);
      const { sentence, options } = input(item);
      expect(options).toHaveLength(2);
      expect(new Set(options).size).toBe(2);
      expect(item.accepted).toHaveLength(1);
      expect(options).toContain(item.accepted![0]);
      expect(sentence.split(BLANK)).toHaveLength(2);
      expect(sentence.replace(BLANK, item.accepted![0]!)).toBe(r.sentence_good);
      const other = options.find(o => o !== item.accepted![0])!;
      expect(sentence.replace(BLANK, other)).toBe(r.sentence_bad);
    }
  });

  it('give the instruction in the item\'s L1 from the shipped templates', () => {
    for (const item of exerciseResult.items) {
      expect(EXERCISE_L1S).toContain(item.l1);
      expect(input(item).l1).toBe(item.l1);
      expect(input(item).instruction).toBe(EXERCISE_INSTRUCTIONS[item.l1 as (typeof EXERCISE_L1S)[number]].text);
    }
  });

  it('spread the four L1s evenly overall and within each paradigm', () => {
    const byL1 = countBy(exerciseResult.items, i => i.l1!);
    expect([...byL1.keys()].sort()).toEqual(['es', 'ja', 'pt', 'vi']);
    expect(spread(byL1)).toBeLessThanOrEqual(1);
    for (const [topic] of countBy(exerciseResult.items, i => i.topic!)) {
      const inTopic = countBy(exerciseResult.items.filter(i => i.topic === topic), i => i.l1!);
      expect(inTopic.size).toBe(4);
      expect(spread(inTopic), topic).toBeLessThanOrEqual(1);
    }
  });

  it('put the accepted form first in about half of the items', () => {
    const first = exerciseResult.items.filter(i => input(i).options[0] === i.accepted![0]).length;
    expect(first / exerciseResult.items.length).toBeGreaterThan(0.4);
    expect(first / exerciseResult.items.length).toBeLessThan(0.6);
  });

  it('ship one instruction per L1, each naming the blank', () => {
    expect(Object.keys(EXERCISE_INSTRUCTIONS).sort()).toEqual(['es', 'ja', 'pt', 'vi']);
    for (const { text } of Object.values(EXERCISE_INSTRUCTIONS)) expect(text).toContain(BLANK);
  });
});

describe('sources that are missing, broken, small or selected', () => {
  it('report a shortfall, not a crash, when the source folder is missing', async () => {
    const missing = join(tmpdir(), 'paideia-no-such-sources');
    for (const b of englishBuilders) {
      const result = await b.build({ sourcesDir: missing, seed: SEED, targetPerTest: 40 });
      expect(result.items).toEqual([]);
      expect(result.shortfalls).toHaveLength(1);
      expect(result.shortfalls[0]).toMatchObject({ test: b.test, wanted: 40, got: 0 });
      expect(result.shortfalls[0]!.reason).toContain(join(missing, 'blimp', 'data'));
    }
  });

  it('throw a ConfigError naming file and line for bad JSON', async () => {
    const lines = realLines('anaphor_gender_agreement', 3);
    lines[2] = '{"sentence_good": "Broken';
    const root = sourcesWith({ 'anaphor_gender_agreement.jsonl': lines });
    const error = await (async () => tutor.build({ sourcesDir: root, seed: SEED, targetPerTest: 4 }))().catch(e => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${join(root, 'blimp', 'data', 'anaphor_gender_agreement.jsonl')}:3`);
  });

  it("use a user's own paradigm, skip its split pairs and leave out excluded phenomena, saying so", async () => {
    const own = realLines('anaphor_number_agreement', 4).map((l, i) =>
      // Made-up paradigm: real sentences, a new UID; pair 3 is changed to differ in two places.
      i === 3
        ? l.replace('"sentence_bad": "Mary should criticize themselves."', '"sentence_bad": "Mary would criticize themselves."')
        : l,
    ).map(l => l.replaceAll('anaphor_number_agreement', 'my_reflexives'));
    const islands = realLines('intransitive', 5).map(l => l.replace('"argument_structure"', '"island_effects"').replaceAll('"intransitive"', '"my_islands"'));
    const root = sourcesWith({
      'my_reflexives.jsonl': own,
      'my_islands.jsonl': islands,
      'transitive.jsonl': realLines('transitive', 10),
    });
    const result = await tutor.build({ sourcesDir: root, seed: SEED, targetPerTest: 30 });
    expect(countBy(result.items, i => i.topic!)).toEqual(new Map([['my_reflexives', 3], ['transitive', 10]]));
    const total = result.shortfalls.find(s => s.wanted === 30)!;
    expect(total).toMatchObject({ test: 'tutor_accuracy', got: 13 });
    expect(total.reason).toContain('more than one place');
    expect(total.reason).toContain('my_islands');
    const perParadigm = result.shortfalls.filter(s => s.wanted === 15);
    expect(perParadigm.map(s => s.got).sort()).toEqual([10, 3]);
    expect(perParadigm.find(s => s.got === 3)!.reason).toMatch(/my_reflexives has only 3 usable pairs \(skipped: 1 because/);
    const notes = result as BuildResult & BuildNotes;
    expect(notes.strata).toEqual([
      { stratum: 'my_reflexives', available: 3, quota: 15, picked: 3 },
      { stratum: 'transitive', available: 10, quota: 15, picked: 10 },
    ]);
    expect(notes.exclusions).toEqual({
      'pairs skipped: the sentences differ in more than one place (not a single contiguous span)': 1,
      'pairs of paradigm my_islands left out: extraction islands: tests acceptability judgements rather than a form learners choose': 5,
    });
    const everything = createEnglishBuilders({ selection: { excludeTerms: {}, excludeUids: {} } })[0]!;
    const all = await everything.build({ sourcesDir: root, seed: SEED, targetPerTest: 30 });
    expect(countBy(all.items, i => i.topic!).get('my_islands')).toBe(5);
    expect(all.items.find(i => i.topic === 'my_islands')!.topic_label).toBe('island effects (my islands)');
  });
});
