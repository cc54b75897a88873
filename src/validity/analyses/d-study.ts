import { dStudy } from '../../stats/index.js';
import type { Decomposition } from './shares.js';

/** The reliability the KwW paper asks of a rating design. */
export const TARGET_RELIABILITY = 0.65;
export const RATER_GRID = [1, 2, 3, 5, 10];
export const PROMPT_GRID = [1, 2, 3, 5];

export interface DStudyCell {
  convention: 'joint' | 'composite';
  raters: number;
  prompts: number;
  eRho2: number;
  phi: number;
  /** E rho^2 >= the target. */
  meetsTarget: boolean;
}

export interface DStudyReport {
  objectOfMeasurement: string[];
  /** What was generalized: the rescaled ratings' REML components. */
  source: 'ratings';
  target: number;
  grid: DStudyCell[];
  /** Smallest raters x prompts meeting the target per convention (fewest total ratings), or null. */
  smallestMeetingTarget: Record<'joint' | 'composite', { raters: number; prompts: number } | null>;
}

/** E rho^2 and Phi over numbers of raters and prompts, object observation x item, both conventions. */
export function dStudyGrid(ratings: Decomposition): DStudyReport {
  const facets = ratings.facets;
  const object = facets.filter(f => f === 'observation' || f === 'item');
  const g = {
    facets,
    levels: ratings.levels,
    nesting: {},
    components: Object.entries(ratings.components).map(([key, c]) => ({ key, facets: key.split(':'), estimate: c.estimate })),
  };
  const grid: DStudyCell[] = [];
  for (const convention of ['joint', 'composite'] as const) {
    for (const raters of facets.includes('rater') ? RATER_GRID : [1]) {
      for (const prompts of facets.includes('prompt') ? PROMPT_GRID : [1]) {
        const sizes: Record<string, number> = {};
        if (facets.includes('rater')) sizes['rater'] = raters;
        if (facets.includes('prompt')) sizes['prompt'] = prompts;
        const d = dStudy(g as Parameters<typeof dStudy>[0], { objectOfMeasurement: object, convention, facets: sizes });
        grid.push({ convention, raters, prompts, eRho2: d.eRho2, phi: d.phi, meetsTarget: d.eRho2 >= TARGET_RELIABILITY });
      }
    }
  }
  const smallest = (convention: 'joint' | 'composite') => {
    const ok = grid.filter(c => c.convention === convention && c.meetsTarget).sort((a, b) => a.raters * a.prompts - b.raters * b.prompts || a.raters - b.raters);
    return ok[0] ? { raters: ok[0].raters, prompts: ok[0].prompts } : null;
  };
  return { objectOfMeasurement: object, source: 'ratings', target: TARGET_RELIABILITY, grid, smallestMeetingTarget: { joint: smallest('joint'), composite: smallest('composite') } };
}
