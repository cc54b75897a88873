import { describe, expect, it } from 'vitest';
import { LearningRunConfigSchema } from './config.js';

describe('a learning run config with bad ablation values', () => {
  it('says what frames and puzzle context take, at the item that is wrong', () => {
    const r = LearningRunConfigSchema.safeParse({ kind: 'learning', units: ['u'], generators: ['g=openai:x'], learners: ['l=openai:y'], frames: ['all', '3'], puzzleContext: ['on'] });
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map(i => ({ path: i.path.join('.'), message: i.message }));
    expect(issues).toContainEqual({ path: 'frames.1', message: 'expected all, or a number of frames from 1 to 60' });
    expect(issues).toContainEqual({ path: 'puzzleContext.0', message: 'expected true or false (on or off)' });
  });
});
