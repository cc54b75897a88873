import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../types.js';
import { anchorsBlock, judgeMessages } from './prompt.js';

describe('anchors in the judge prompt', () => {
  it('drop reasoning blocks from the anchor dialogue, as from the judged dialogue', () => {
    const block = anchorsBlock([{
      id: 'a1', task: {}, scores: { clarity: 4 },
      dialogue: 'student: 3x = 9?\nteacher: <think>They need division.</think>What is 9 divided by 3?\nstudent: <thinking>hm</thinking>3',
    }]);
    expect(block).not.toMatch(/think|division/);
    expect(block).toContain('teacher: What is 9 divided by 3?\nstudent: 3');
  });
  it('the judge messages carry the stripped anchors', () => {
    const ev: Evaluation = {
      name: 'e', judges: ['j'], aggregation: 'mean', repeats: 1, formatMode: 'tool', formatRetries: 0,
      prompt: [{ role: 'system', content: 'Judge.' }], format: [], scored: [], version: 'v',
      anchors: [{ id: 'a1', task: {}, scores: {}, dialogue: 'teacher: <reasoning>secret plan</reasoning>Hello' }],
    };
    const text = judgeMessages(ev, {}, [{ speaker: 'teacher', content: '<think>x</think>Hi' }]).map(m => m.content).join('\n');
    expect(text).not.toContain('secret plan');
    expect(text).toContain('teacher: Hello');
  });
});
