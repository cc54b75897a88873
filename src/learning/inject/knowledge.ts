import type { MiniElement } from 'jsdom';
import { createRng } from '../../stats/index.js';
import type { Unit } from '../units/index.js';
import { parseDeck, textBlocks, textNodes, textOf, tokenPattern } from './deck-dom.js';
import type { DeckChange, InjectedDeck } from './types.js';

/**
 * What a rule can be made wrong by: two of its affixes (`ni-`, `-h`) exchanged, or failing that
 * two of its glosses (`'cry'`, `'sleep'`). Either keeps the rule's wording and makes it false.
 */
export function swappableTokens(rule: string): string[] {
  const words = rule.split(/\s+/).map(w => w.replace(/^[("“]+|[),;.:"”]+$/g, ''));
  const affixes = [...new Set(words.filter(w => /^-[\p{L}\p{M}ʔ:]+$|^[\p{L}\p{M}ʔ:]+-$/u.test(w)))];
  if (affixes.length >= 2) return affixes;
  return [...new Set(rule.match(/'[^'\s][^']*'/g) ?? [])];
}

interface Candidate { rule: number; pair: [string, string]; block: MiniElement }

/**
 * Knowledge error: one rule made wrong where the deck states it. Among the deck's text blocks
 * holding two swappable tokens of one of the unit's rules, the seed picks one (rule, pair, block),
 * and the two tokens are exchanged in that block only.
 */
export function swapRule(html: string, unit: Pick<Unit, 'rules'>, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const blocks = textBlocks(dom);
  const candidates: Candidate[] = [];
  unit.rules.forEach((rule, r) => {
    const tokens = swappableTokens(rule);
    for (const block of blocks) {
      const found = new Set(textOf(block).match(tokenPattern(tokens)) ?? []);
      const present = tokens.filter(t => found.has(t));
      for (let i = 0; i < present.length; i++) for (let j = i + 1; j < present.length; j++) candidates.push({ rule: r, pair: [present[i]!, present[j]!], block });
    }
  });
  const base = { kind: 'rule-swap' as const, family: 'knowledge' as const, seed };
  if (candidates.length === 0) return { ...base, html, changes: [], notApplicable: 'no slide states a rule of the unit with two affixes or glosses to exchange' };
  const pick = candidates[createRng(seed).nextInt(candidates.length)]!;
  const before = textOf(pick.block);
  const [a, b] = pick.pair;
  for (const node of textNodes(pick.block)) {
    node.nodeValue = (node.nodeValue ?? '').replace(tokenPattern(pick.pair), t => (t === a ? b : a));
  }
  const change: DeckChange = {
    action: 'text-replaced', slide: dom.slideOf(pick.block), element: pick.block.nodeName.toLowerCase(),
    before, after: textOf(pick.block), rule: pick.rule, swapped: [a, b],
  };
  return { ...base, html: dom.serialise(), changes: [change] };
}
