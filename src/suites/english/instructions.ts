/**
 * Instructions of the English `exercises` test, in the learner's first language.
 *
 * Written by the Paideia authors during development (drafted with an AI coding assistant) and
 * fixed here as data: no model writes, translates or alters them at build or run time, so every
 * item's instruction is one of these four strings. They have not yet been reviewed by native
 * speakers; the items say so through `human_checked: false`. Each asks the learner to choose the
 * option that fills the blank, which fits one-word and multi-word options alike.
 */
export const EXERCISE_L1S = ['pt', 'es', 'vi', 'ja'] as const;

export type ExerciseL1 = (typeof EXERCISE_L1S)[number];

export interface Instruction {
  /** The language in English, for docs and reports. */
  language: string;
  text: string;
}

export const EXERCISE_INSTRUCTIONS: Readonly<Record<ExerciseL1, Instruction>> = {
  pt: { language: 'Portuguese', text: 'Escolha a opção correta para completar a lacuna (____) na frase.' },
  es: { language: 'Spanish', text: 'Elige la opción correcta para completar el espacio en blanco (____) de la oración.' },
  vi: { language: 'Vietnamese', text: 'Chọn phương án đúng để điền vào chỗ trống (____) trong câu.' },
  ja: { language: 'Japanese', text: '文中の空欄（____）に入る正しい選択肢を選んでください。' },
};
