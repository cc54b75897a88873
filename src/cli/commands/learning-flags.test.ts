import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { learningConfig } from './learning.js';

describe('learning run flags', () => {
  it('are checked all at once: every bad flag is named in one error, not the first alone', () => {
    let error: unknown;
    try {
      learningConfig({ units: ['u'], generator: ['g=baseline:outline'], learner: ['l=baseline:examples'], repeats: '0', costCap: '-1', concurrency: 'x', puzzleContext: ['maybe'], frames: ['0'], store: 'sqlite::memory:' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map(i => i.field)).toEqual(['--repeats', '--cost-cap', '--concurrency', '--puzzle-context', '--frames']);
  });

  it('read good values as the config takes them', () => {
    expect(learningConfig({ units: ['a,b'], generator: ['g=baseline:outline'], learner: ['l=baseline:examples'], repeats: '2', puzzleContext: ['off,on'], frames: ['all,3'], store: 'sqlite::memory:' }))
      .toMatchObject({ units: ['a', 'b'], repeats: 2, puzzleContext: [false, true], frames: ['all', 3] });
  });
});
