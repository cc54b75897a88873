import type { Unit } from './schema.js';

/** Limits every generated deck must respect; the sanitiser enforces the same numbers. */
export const DECK_LIMITS = { maxSlides: 60, maxBytes: 2_000_000, width: 1280, height: 720 } as const;

/**
 * What the deck generator is given for a unit. It carries the teaching content and describes the
 * tests, but holds no test item and no answer: a deck that copied the outline must not pass the test.
 */
export interface CourseOutline {
  unit: string;
  title: string;
  language: string;
  taskType: Unit['task_type'];
  difficulty: Unit['difficulty']['band'];
  knowledgePoint: string;
  objectives: string[];
  requiredContent: {
    rules: string[];
    terms: Unit['terms'];
    exceptions: string[];
    examples: Unit['examples'];
  };
  prohibitedContent: string[];
  visualAids: Unit['visual_aids'];
  transferDesign: { sourceItems: number; near: { items: number; description: string }; far: { items: number; description: string } };
  deckFormat: string[];
}

export function buildOutline(unit: Unit): CourseOutline {
  return {
    unit: unit.id,
    title: unit.title,
    language: unit.language,
    taskType: unit.task_type,
    difficulty: unit.difficulty.band,
    knowledgePoint: unit.knowledge_point,
    objectives: [
      `Understand ${unit.knowledge_point.charAt(0).toLowerCase()}${unit.knowledge_point.slice(1)}`,
      ...unit.rules.map((_, i) => `State and apply rule ${i + 1} on new ${unit.language} material`),
      ...(unit.exceptions.length ? ['Recognise the exceptions and handle them correctly'] : []),
      'Carry the rules over to new combinations (near transfer) and to a new direction or context (far transfer)',
    ],
    requiredContent: { rules: unit.rules, terms: unit.terms, exceptions: unit.exceptions, examples: unit.examples },
    prohibitedContent: [
      'Any pretest, posttest or transfer item, or its answer (they are withheld from this outline)',
      `${unit.language} words, sentences or translations that are not among the examples above (invented data may be wrong)`,
      'Scripts, event handlers, and images, fonts or stylesheets loaded from outside the document',
    ],
    visualAids: unit.visual_aids,
    transferDesign: {
      sourceItems: unit.source_items.length,
      near: { items: unit.near_transfer.length, description: unit.transfer_design.near },
      far: { items: unit.far_transfer.length, description: unit.transfer_design.far },
    },
    deckFormat: [
      'One HTML document; each slide is a <section class="slide"> of 1280x720 pixels',
      'Practice slides carry data-role="exercise"',
      'Images inline (data: URLs or <svg>); no external references',
      'At most 60 slides and 2 MB',
    ],
  };
}
