import { ConfigError, parseModelSpec, type ModelSpec } from '../../core/index.js';
import { BASELINE_DECK_GENERATORS } from '../decks/baselines.js';
import type { DeckGenerator } from '../decks/generator.js';
import { EXAMPLES_LEARNER } from '../steps/examples-learner.js';
import type { LearningRunSettings } from './config.js';

/** The study's models by role; code baselines (decks, the examples learner) need no model. */
export interface LearningRoles {
  generators: ModelSpec[];
  learners: ModelSpec[];
  judges: ModelSpec[];
  codeGenerators: Map<string, DeckGenerator>;
  codeLearners: Set<string>;
  /** Specs the engine calls (everything but the code baselines). */
  models: ModelSpec[];
}

/** Parse and check every `NAME=SPEC`, reporting every problem at once. */
export function learningRoles(s: Pick<LearningRunSettings, 'generators' | 'learners' | 'judges' | 'imageModels'>): LearningRoles {
  const issues: Array<{ field: string; message: string }> = [];
  const parse = (field: string, texts: string[]) => texts.flatMap(t => {
    try {
      return [parseModelSpec(t, { field })];
    } catch (error) {
      issues.push(...(error as ConfigError).issues.map(i => ({ field, message: i.message })));
      return [];
    }
  });
  const generators = parse('--generator', s.generators);
  const learners = parse('--learner', s.learners);
  const judges = parse('--judge', s.judges);
  const codeGenerators = new Map<string, DeckGenerator>();
  for (const g of generators) {
    const make = BASELINE_DECK_GENERATORS[g.spec];
    if (make) codeGenerators.set(g.alias, make());
    else if (g.provider === 'baseline') issues.push({ field: '--generator', message: `"${g.spec}" is not a deck generator; the built-in ones are ${Object.keys(BASELINE_DECK_GENERATORS).join(', ')}, or name a model (e.g. gen=openai:gpt-4.1)` });
  }
  const codeLearners = new Set<string>();
  for (const l of learners) {
    if (l.spec === EXAMPLES_LEARNER) codeLearners.add(l.alias);
    else if (l.provider === 'baseline' && l.model !== 'script') issues.push({ field: '--learner', message: `"${l.spec}" is not a learner; the built-in one is ${EXAMPLES_LEARNER} (answers from the examples alone), or name a model (e.g. learner=openai:gpt-4.1-mini)` });
  }
  const all = [...generators, ...learners, ...judges];
  const seen = new Set<string>();
  for (const m of all) {
    if (seen.has(m.alias)) issues.push({ field: 'NAME', message: `the name "${m.alias}" is given twice; give each generator, learner and judge its own NAME, e.g. --judge j1=${m.spec}` });
    seen.add(m.alias);
  }
  for (const alias of s.imageModels) {
    const m = [...learners, ...judges].find(x => x.alias === alias);
    if (!m) issues.push({ field: '--images', message: `"${alias}" is not the NAME of a learner or judge; name one of ${[...learners, ...judges].map(x => x.alias).join(', ') || '(none)'}` });
    else m.images = true;
  }
  if (issues.length) throw new ConfigError(issues);
  const models = all.filter(m => !codeGenerators.has(m.alias) && !codeLearners.has(m.alias));
  return { generators, learners, judges, codeGenerators, codeLearners, models };
}
