import { describe, expect, it } from 'vitest';
import { loadShippedUnit } from '../testing/study-server.js';
import type { SlideRecord } from './deck-record.js';
import { learnerRequest, parseAnswer, protocolSteps, sampledSlides } from './protocol.js';

const slides = (n: number): SlideRecord[] => Array.from({ length: n }, (_, i) => ({ index: i + 1, text: `slide ${i + 1}`, png: null }));
const unit = loadShippedUnit('chickasaw-case-and-person');

describe('the SLATE protocol', () => {
  it('runs pretest, study, posttest, near and far in that order, one call per item and slide', () => {
    const steps = protocolSteps(unit, slides(2));
    expect(steps.map(s => s.phase)).toEqual(['pretest', 'study', 'study', 'posttest', 'near', 'near', 'near', 'near', 'near', 'far', 'far', 'far']);
    expect(steps.filter(s => s.phase === 'posttest').map(s => s.phase !== 'study' && s.item)).toEqual(unit.source_items);
  });

  it('studies k frames drawn with the seed (the title among them, in deck order), or all', () => {
    const three = sampledSlides(slides(10), 3, 7).map(s => s.index);
    expect(three).toHaveLength(3);
    expect(three[0]).toBe(1);
    expect([...three].sort((a, b) => a - b)).toEqual(three);
    expect(sampledSlides(slides(10), 3, 7)).toEqual(sampledSlides(slides(10), 3, 7));
    expect(sampledSlides(slides(10), 1, 7).map(s => s.index)).toEqual([1]);
    expect(sampledSlides(slides(2), 5, 7).map(s => s.index)).toEqual([1, 2]);
    expect(sampledSlides(slides(4), 'all', 7)).toHaveLength(4);
  });

  it('shows the puzzle examples only with puzzle context on, and notes only after the pretest', () => {
    const [pre, , post] = protocolSteps(unit, slides(1));
    const example = `${unit.examples[0]!.source} = ${unit.examples[0]!.target}`;
    const off = learnerRequest(post!, { unit, puzzleContext: false, notes: 'MY NOTES', images: false }).messages[1]!.content;
    const on = learnerRequest(post!, { unit, puzzleContext: true, notes: 'MY NOTES', images: false }).messages[1]!.content;
    expect(off).not.toContain(example);
    expect(on).toContain(example);
    expect(on).toContain('MY NOTES');
    expect(learnerRequest(pre!, { unit, puzzleContext: false, notes: 'MY NOTES', images: false }).messages[1]!.content).not.toContain('MY NOTES');
  });

  it('sends a slide as an image to a learner that accepts images, else as its text', () => {
    const png = { hash: 'a'.repeat(64), mediaType: 'image/png', size: 10 };
    const [, study] = protocolSteps(unit, [{ index: 1, text: 'THE SLIDE TEXT', png }]);
    const asImage = learnerRequest(study!, { unit, puzzleContext: false, images: true }).messages[1]!;
    const asText = learnerRequest(study!, { unit, puzzleContext: false, images: false }).messages[1]!;
    expect(asImage.images).toEqual([{ blob: png }]);
    expect(asImage.content).not.toContain('THE SLIDE TEXT');
    expect(asText.images).toBeUndefined();
    expect(asText.content).toContain('THE SLIDE TEXT');
  });

  it('reads the last "Answer:" line; a reply without one is unparseable, with its reason', () => {
    expect(parseAnswer('Let me think.\nAnswer: first\nno, wait\nAnswer: **the dog** ')).toEqual({ answer: 'the dog' });
    expect(parseAnswer('answer: x')).toEqual({ answer: 'x' });
    expect(parseAnswer('the dog')).toEqual({ answer: null, reason: 'no "Answer: ..." line in the reply' });
    expect(parseAnswer('Answer:   ').answer).toBeNull();
  });
});
