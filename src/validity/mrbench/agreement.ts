import { cohenKappa } from '../../stats/index.js';
import { DIMENSION_NAMES, DIMENSIONS, type Dimension, type TutorResponseLabels } from './format.js';

export interface DimensionAgreement {
  dimension: Dimension;
  /** Responses labelled by both the humans and the judge. */
  n: number;
  accuracy: number;
  /** Unweighted mean of the per-label F1 over the dimension's labels present in either side (sklearn 'macro', zero_division 0). */
  macroF1: number;
  /** BEA 2025 "lenient" macro-F1: Yes and To some extent merged (three-way Yes/To some extent/No dimensions only). */
  lenientMacroF1: number | null;
  kappa: number;
  perLabel: { label: string; precision: number; recall: number; f1: number; support: number }[];
}

const key = (r: Pick<TutorResponseLabels, 'conversationId' | 'tutor'>) => `${r.conversationId}\u0000${r.tutor}`;

/** Per-dimension agreement of a judge's labels with the human annotations, matched by conversation and tutor. */
export function dimensionAgreement(gold: TutorResponseLabels[], judged: TutorResponseLabels[]): DimensionAgreement[] {
  const byKey = new Map(judged.map(j => [key(j), j]));
  return DIMENSION_NAMES.flatMap(dimension => {
    const a: string[] = [];
    const b: string[] = [];
    for (const g of gold) {
      const want = g.labels[dimension];
      const got = byKey.get(key(g))?.labels[dimension];
      if (want !== undefined && got !== undefined) { a.push(want); b.push(got); }
    }
    if (!a.length) return [];
    const threeWay = DIMENSIONS[dimension].includes('To some extent' as never);
    const lenient = (l: string) => (l === 'To some extent' ? 'Yes' : l);
    const strict = scores(a, b);
    return [{
      dimension, n: a.length, accuracy: strict.accuracy, macroF1: strict.macroF1,
      lenientMacroF1: threeWay ? scores(a.map(lenient), b.map(lenient)).macroF1 : null,
      kappa: cohenKappa(a, b).kappa, perLabel: strict.perLabel,
    }];
  });
}

/** Accuracy, per-label precision/recall/F1 and their macro mean, from the kappa's confusion matrix. */
function scores(gold: string[], judged: string[]) {
  const { confusion, labels } = cohenKappa(gold, judged);
  const n = gold.length;
  let correct = 0;
  const perLabel = labels.map((label, i) => {
    const tp = confusion[i]![i]!;
    correct += tp;
    const support = confusion[i]!.reduce((s, v) => s + v, 0);
    const predicted = confusion.reduce((s, row) => s + row[i]!, 0);
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    return { label: String(label), precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, support };
  });
  return { accuracy: correct / n, macroF1: perLabel.reduce((s, l) => s + l.f1, 0) / perLabel.length, perLabel };
}
