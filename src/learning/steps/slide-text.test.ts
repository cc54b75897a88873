import { describe, expect, it } from 'vitest';
import { deckHtmlOf } from './deck-prompt.js';
import { answerFromExamples } from './examples-learner.js';
import { slideTexts } from './slide-text.js';
import { loadShippedUnit } from '../testing/study-server.js';

describe('slide text for text-only readers', () => {
  it('gives one line per block and table row, cells separated, styles left out', () => {
    const html = '<html><head><style>p{color:red}</style></head><body><section class="slide"><h1>Title</h1><ul><li>a</li><li>b</li></ul></section>'
      + '<section class="slide"><style>.x{}</style><table><tr><th>Nahuatl</th><th>English</th></tr><tr><td>nikochi</td><td>I sleep</td></tr></table></section></body></html>';
    expect(slideTexts(html)).toEqual(['Title\na\nb', 'Nahuatl | English\nnikochi | I sleep']);
  });
});

describe('reading a generator answer', () => {
  it('takes the inside of a fenced html block, else the whole answer', () => {
    expect(deckHtmlOf('Here it is:\n```html\n<html>x</html>\n```\nEnjoy')).toBe('<html>x</html>');
    expect(deckHtmlOf('  <html>y</html> ')).toBe('<html>y</html>');
  });
});

describe('the examples-only learner baseline', () => {
  it('answers with the other side of the example sharing most words with the prompt', () => {
    const unit = loadShippedUnit('udihe-possession');
    const e = unit.examples[0]!;
    expect(answerFromExamples(unit, { prompt: `Translate: ${e.source}`, answer: 'x' })).toEqual({ answer: e.target });
    expect(answerFromExamples(unit, { prompt: 'zzzz qqqq', answer: 'x' })).toEqual({ answer: null, reason: 'no example shares a word with the prompt' });
  });
});
