/** The four error families of the protocol, each aimed at one judged dimension. */
export const INJECTION_FAMILIES = ['knowledge', 'pedagogy', 'visual', 'integrity'] as const;
export type InjectionFamily = (typeof INJECTION_FAMILIES)[number];

/** The transforms, each in one family. */
export const INJECTION_KINDS = ['rule-swap', 'examples-removed', 'order-scrambled', 'tables-flattened', 'colour-removed', 'answers-leaked'] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

/** One change made to the deck, with enough to show it to a reader and to check it. */
export type DeckChange =
  /** Text of one element rewritten (a rule made wrong): `swapped` are the two tokens exchanged. */
  | { action: 'text-replaced'; slide: number; element: string; before: string; after: string; rule: number; swapped: [string, string] }
  /** An element taken out (an example row, list entry or paragraph). */
  | { action: 'element-removed'; slide: number; element: string; text: string }
  /** A table replaced by paragraphs of its rows' text. */
  | { action: 'table-flattened'; slide: number; rows: string[] }
  /** A colour replaced by the grey of the same relative luminance; `slide` -1 is a `<style>` element. */
  | { action: 'colour-greyed'; slide: number; element: string; where: string; before: string; after: string }
  /** Slides in a new order: `order[i]` is the original index of new slide i. */
  | { action: 'slides-reordered'; order: number[] }
  /** A slide added at `slide` (new deck's index) carrying transfer items with their answers. */
  | { action: 'slide-added'; slide: number; items: Array<{ set: 'near_transfer' | 'far_transfer'; index: number; prompt: string; answer: string }> };

/** A corrupted variant of a deck and exactly what was changed to make it. */
export interface InjectedDeck {
  kind: InjectionKind;
  family: InjectionFamily;
  seed: number;
  html: string;
  /** Empty when the deck offered nothing to corrupt (no table to flatten...): the variant equals the deck. */
  changes: DeckChange[];
  /** Why nothing was changed, when `changes` is empty. */
  notApplicable?: string;
}
