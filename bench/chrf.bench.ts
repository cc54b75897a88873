import { corpusChrF } from '../src/metrics/index.js';
import { medianSeconds, type BenchFigure } from './harness.js';

// chrF++ over 20,000 sentence pairs, the workload of the sacrebleu figure in issue #3 (7.8 s there).
const PAIRS = 20_000;
const REFERENCE_SECONDS = 7.8;

/** mulberry32: a small seeded generator, so every run scores the same corpus. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Syllables with the accented letters of Irish, Welsh, Scottish Gaelic, Czech, German and Polish, so
// the corpus exercises non-ASCII code points the way real learner and tutor text does.
const ONSETS = ['b', 'bh', 'c', 'ch', 'd', 'dh', 'f', 'g', 'gh', 'l', 'm', 'mh', 'n', 'p', 'r', 's', 't', 'th', 'č', 'š', 'ž', 'ł', 'w', 'z', 'st', 'br', 'cr', ''];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'á', 'é', 'í', 'ó', 'ú', 'ù', 'à', 'ä', 'ö', 'ü', 'ě', 'ŵ', 'ea', 'ai', 'ío', 'ua'];
const CODAS = ['', '', 'n', 'r', 'l', 'dh', 's', 'ch', 'ß', 'ň', 'ght', 'nn', 'll'];

function makeVocabulary(next: () => number, size: number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 1 + Math.floor(next() * next() * 4);
    let w = '';
    for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
    words.add(w);
  }
  return [...words];
}

/** Reference sentences of 5-30 words and hypotheses that differ as a system output would. */
export function syntheticPairs(count: number, seed = 20260301): { hypotheses: string[]; references: string[] } {
  const next = rng(seed);
  const vocab = makeVocabulary(next, 5000);
  // Zipf-like word choice: frequent function words, a long tail of content words.
  const word = () => vocab[Math.floor(vocab.length * next() ** 3)]!;
  const hypotheses: string[] = [];
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const ref = Array.from({ length: 5 + Math.floor(next() * 26) }, word);
    const hyp: string[] = [];
    for (const w of ref) {
      const r = next();
      if (r < 0.12) hyp.push(word());
      else if (r < 0.17) continue;
      else if (r < 0.21) hyp.push(w, word());
      else hyp.push(w);
    }
    references.push(sentence(ref, next));
    hypotheses.push(sentence(hyp.length ? hyp : ref.slice(0, 1), next));
  }
  return { hypotheses, references };
}

function sentence(words: string[], next: () => number): string {
  const out = words.map((w, j) => (j > 0 && next() < 0.08 ? `${w},` : w));
  out[0] = out[0]!.charAt(0).toUpperCase() + out[0]!.slice(1);
  return out.join(' ') + (next() < 0.85 ? '.' : '?');
}

export default async function chrfBench(): Promise<BenchFigure[]> {
  const { hypotheses, references } = syntheticPairs(PAIRS);
  const seconds = await medianSeconds(() => corpusChrF(hypotheses, [references], { wordOrder: 2 }), 5);
  return [
    {
      name: `chrF++ corpus score, ${PAIRS.toLocaleString('en')} seeded synthetic sentence pairs`,
      ours: seconds,
      reference: REFERENCE_SECONDS,
      unit: 's',
      referenceLabel: 'sacrebleu 2.6.0 chrF++, issue #3 figure measured on this machine',
      target: '>= 10x faster',
      met: REFERENCE_SECONDS / seconds >= 10,
    },
  ];
}
