import { describe, expect, it } from 'vitest';
import { memoryWindow, stripReasoning, type DialogueMessage } from './memory.js';

describe('stripReasoning', () => {
  it('removes think, thinking and reasoning blocks, case-insensitively, and trims', () => {
    expect(stripReasoning('<think>plan</think> Hello')).toBe('Hello');
    expect(stripReasoning('A <THINKING>x\ny</THINKING>B <reasoning>z</reasoning>C')).toBe('A B C');
    expect(stripReasoning('no tags')).toBe('no tags');
  });
  it('drops reasoning before a closing tag with no opening (models that omit it)', () => {
    expect(stripReasoning('long reasoning...</think>\nThe answer')).toBe('The answer');
  });
  it('keeps an unclosed opening tag, which may be content', () => {
    expect(stripReasoning('Use the <think> tag')).toBe('Use the <think> tag');
  });
});

const t = (speaker: string, content: string, role?: DialogueMessage['role']): DialogueMessage => ({ speaker, content, ...(role ? { role } : {}) });
// START, then teacher and student alternate: T1 S1 T2 S2 T3 S3
const transcript: DialogueMessage[] = [
  t('START', 'Help me', 'user'),
  t('teacher', 'T1'), t('student', 'S1'), t('teacher', 'T2'), t('student', 'S2'), t('teacher', '<think>hm</think>T3'), t('student', 'S3'),
];

describe('memoryWindow', () => {
  it('maps own turns to assistant, others to user, the start prompt to its role, reasoning stripped', () => {
    expect(memoryWindow('teacher', transcript, { enable: true, keepTurns: 10 })).toEqual([
      { role: 'user', content: 'Help me' },
      { role: 'assistant', content: 'T1' }, { role: 'user', content: 'S1' },
      { role: 'assistant', content: 'T2' }, { role: 'user', content: 'S2' },
      { role: 'assistant', content: 'T3' }, { role: 'user', content: 'S3' },
    ]);
    expect(memoryWindow('student', transcript.slice(0, 2), { enable: true, keepTurns: 3 })).toEqual([
      { role: 'user', content: 'Help me' }, { role: 'user', content: 'T1' },
    ]);
    expect(memoryWindow('teacher', [t('START', 'Be brief', 'system')], { enable: true, keepTurns: 3 })).toEqual([{ role: 'system', content: 'Be brief' }]);
  });

  it('keep_turns keeps that many own turns with the messages that led to them', () => {
    expect(memoryWindow('teacher', transcript, { enable: true, keepTurns: 1 }).map(m => m.content)).toEqual(['S2', 'T3', 'S3']);
    expect(memoryWindow('teacher', transcript, { enable: true, keepTurns: 2 }).map(m => m.content)).toEqual(['S1', 'T2', 'S2', 'T3', 'S3']);
    expect(memoryWindow('student', transcript, { enable: true, keepTurns: 1 }).map(m => m.content)).toEqual(['T3', 'S3']);
    expect(memoryWindow('student', transcript, { enable: true, keepTurns: 3 }).map(m => m.content)).toEqual(transcript.map(m => m.content).map(c => c.replace(/<think>.*<\/think>/, '')));
  });

  it('keep_turns 0, or memory disabled, sees only the messages since its last turn', () => {
    expect(memoryWindow('teacher', transcript, { enable: true, keepTurns: 0 }).map(m => m.content)).toEqual(['S3']);
    expect(memoryWindow('teacher', transcript, { enable: false, keepTurns: 5 }).map(m => m.content)).toEqual(['S3']);
    expect(memoryWindow('student', transcript, { enable: false, keepTurns: 5 }).map(m => m.content)).toEqual([]);
    expect(memoryWindow('student', transcript.slice(0, 6), { enable: false, keepTurns: 5 }).map(m => m.content)).toEqual(['T3']);
  });

  it('an agent that has not spoken yet sees everything so far', () => {
    expect(memoryWindow('judge', transcript, { enable: false, keepTurns: 0 })).toHaveLength(transcript.length);
  });
});
