import { describe, expect, it } from 'vitest';
import type { StabilityStudy } from '../../scenarios/studies/index.js';
import { emptyStability, renderStudy } from './studies.js';

const study = (rows: StabilityStudy['rows'], judgments: number): StabilityStudy =>
  ({ study: 'stability', runId: 'scn-1', judgments, failed: 0, pending: 0, judgeRepeats: 2, experts: false, rows }) as unknown as StabilityStudy;

describe('renderStudy (stability)', () => {
  it('says so when judgments were made but none gave a score, instead of an empty table', () => {
    expect(renderStudy(study([], 4))).toContain(emptyStability('scn-1'));
  });
  it('shows no such note when there is nothing judged yet', () => {
    expect(renderStudy(study([], 0))).not.toContain(emptyStability('scn-1'));
  });
});
