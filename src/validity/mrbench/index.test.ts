import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { dimensionAgreement } from './agreement.js';
import { readTutorAnnotations } from './format.js';

// Hand-written fixtures in the public MRBench / BEA 2025 shape (no data copied from either release).
const MI_GOLD = ['Yes', 'Yes', 'No', 'To some extent', 'No', 'Yes'];
const MI_JUDGE = ['Yes', 'No', 'No', 'Yes', 'No', 'Yes'];
function dialogues(mi: string[], key: 'anno_llm_responses' | 'tutor_responses', extra: Record<string, string> = {}) {
  return JSON.stringify([0, 1, 2].map(d => ({
    conversation_id: `c${d}`, conversation_history: 'Tutor: What is 3 x 4?\nStudent: 7', Data: 'synthetic',
    [key]: Object.fromEntries(['Tutor_A', 'Tutor_B'].map((t, k) => [t, {
      response: `Let us check ${d}${k}.`,
      annotation: { Mistake_Identification: mi[2 * d + k], Tutor_Tone: 'Neutral', ...extra },
    }])),
  })));
}

describe('MRBench / BEA 2025 annotations', () => {
  it('reads both layouts, canonicalises labels and ignores unknown dimensions', () => {
    const r = readTutorAnnotations(dialogues(MI_GOLD, 'anno_llm_responses', { Revealing_of_the_Answer: 'Yes (and the revealed answer is correct)', humanlikeness: 'yes', Other: 'x' }), 'gold.json');
    expect(r).toHaveLength(6);
    expect(r[0]).toEqual({ conversationId: 'c0', tutor: 'Tutor_A', response: 'Let us check 00.', labels: { Mistake_Identification: 'Yes', Tutor_Tone: 'Neutral', Revealing_of_the_Answer: 'Yes (correct)', Humanlikeness: 'Yes' } });
    expect(readTutorAnnotations(dialogues(MI_GOLD, 'tutor_responses'), 'bea.json')[3]!.labels.Mistake_Identification).toBe('To some extent');
  });

  it('a label outside the dimension names its JSON path', () => {
    const bad = dialogues(MI_GOLD.map((l, i) => (i === 4 ? 'Maybe' : l)), 'anno_llm_responses');
    expect(() => readTutorAnnotations(bad, 'gold.json')).toThrow(ConfigError);
    expect(() => readTutorAnnotations(bad, 'gold.json')).toThrow('gold.json, field "[2].Tutor_A.annotation.Mistake_Identification": label "Maybe" is not one of Yes / To some extent / No');
  });

  it('per-dimension accuracy, macro-F1 (strict and lenient) and kappa, by hand', () => {
    const gold = readTutorAnnotations(dialogues(MI_GOLD, 'anno_llm_responses'), 'g');
    const judge = readTutorAnnotations(dialogues(MI_JUDGE, 'anno_llm_responses'), 'j');
    const [mi, tone] = dimensionAgreement(gold, judge);
    expect(mi!.dimension).toBe('Mistake_Identification');
    expect(mi!.n).toBe(6);
    expect(mi!.accuracy).toBeCloseTo(4 / 6, 14);
    // F1: No 0.8, To some extent 0, Yes 2/3.
    expect(mi!.perLabel.map(l => [l.label, l.f1])).toEqual([['No', 0.8], ['To some extent', 0], ['Yes', expect.closeTo(2 / 3, 14)]]);
    expect(mi!.macroF1).toBeCloseTo((0.8 + 2 / 3) / 3, 14);
    // Lenient: No 0.8, Yes 2 * 0.75 / 1.75.
    expect(mi!.lenientMacroF1).toBeCloseTo((0.8 + 1.5 / 1.75) / 2, 14);
    // Observed agreement 4/6; chance (2*3 + 1*0 + 3*3) / 36.
    expect(mi!.kappa).toBeCloseTo((4 / 6 - 15 / 36) / (1 - 15 / 36), 12);
    expect(tone!.dimension).toBe('Tutor_Tone');
    expect(tone!.lenientMacroF1).toBeNull();
  });
});
