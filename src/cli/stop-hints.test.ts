import { describe, expect, it } from 'vitest';
import { raisedCapArgs } from './stop-hints.js';

describe('raisedCapArgs', () => {
  it('names nothing when the cap did not stop the session', () => {
    expect(raisedCapArgs({ spentUsd: 3 }, 5)).toEqual([]);
    expect(raisedCapArgs({ stoppedBy: 'interrupt', spentUsd: 3, refusedUsd: 9 }, 5)).toEqual([]);
  });

  it('is at least $1, twice the cap and twice the spend', () => {
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 0.03 }, 0.035)).toEqual(['--cost-cap', '1']);
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 4.2, refusedUsd: 0.5 }, 5)).toEqual(['--cost-cap', '10']);
    // A provider billed past its reservation: the spend is over the cap.
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 7 }, 5)).toEqual(['--cost-cap', '14']);
    // No cap known (a stored run's): the spend decides.
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 0.8 }, undefined)).toEqual(['--cost-cap', '1.6']);
  });

  it('leaves room above the spend for the call the cap refused, rounded up to a cent', () => {
    // 4.9 + 12 = 16.9: twice the cap (10) would be refused again.
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 4.9, refusedUsd: 12 }, 5)).toEqual(['--cost-cap', '16.9']);
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 0, refusedUsd: 2.0035 }, 0.5)).toEqual(['--cost-cap', '2.01']);
    // A hair above a whole cent is the next cent, or the pasted cap refuses the same call again.
    expect(raisedCapArgs({ stoppedBy: 'cost-cap', spentUsd: 0, refusedUsd: 4.1500000005 }, 1)).toEqual(['--cost-cap', '4.16']);
  });
});
