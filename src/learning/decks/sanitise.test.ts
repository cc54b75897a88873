import { describe, expect, it } from 'vitest';
import { sanitiseDeck } from './sanitise.js';

const doc = (body: string, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
function clean(html: string) {
  const deck = sanitiseDeck(html);
  if (!deck.ok) throw new Error(deck.message);
  return deck;
}

describe('sanitiseDeck', () => {
  it('removes scripts and lists them', () => {
    const deck = clean(doc('<section class="slide"><p>a</p><script>fetch("http://x")</script></section><script src="data:text/javascript,1"></script>'));
    expect(deck.html).not.toMatch(/<script/i);
    expect(deck.report.filter(e => e.kind === 'script')).toHaveLength(2);
  });

  it('removes event handlers and javascript: links, keeping the elements', () => {
    const deck = clean(doc('<section class="slide" onclick="x()"><img src="data:image/png;base64,AAAA" onerror="y()"><a href="javascript:z()">go</a></section>'));
    expect(deck.html).not.toMatch(/onclick|onerror|javascript:/i);
    expect(deck.html).toContain('<img src="data:image/png;base64,AAAA">');
    expect(deck.report).toEqual([
      { kind: 'event-handler', element: 'section', detail: 'onclick' },
      { kind: 'event-handler', element: 'img', detail: 'onerror' },
      { kind: 'attribute', element: 'a', detail: 'href' },
    ]);
  });

  it('removes external images and stylesheets, keeps inline ones', () => {
    const deck = clean(doc(
      '<section class="slide"><img src="https://example.org/cat.png"><img src="//cdn.example/x.png"><img src="data:image/png;base64,AAAA"><picture><source srcset="http://a/b.webp 2x"><img src="data:image/png;base64,BBBB"></picture></section>',
      '<link rel="stylesheet" href="http://fonts.example/css">',
    ));
    expect(deck.html).not.toMatch(/example|http:\/\/a\/|<link/);
    expect(deck.html).toContain('data:image/png;base64,AAAA');
    expect(deck.report).toEqual([
      { kind: 'external-reference', element: 'link', detail: 'http://fonts.example/css' },
      { kind: 'external-reference', element: 'img', detail: 'https://example.org/cat.png' },
      { kind: 'external-reference', element: 'img', detail: '//cdn.example/x.png' },
      { kind: 'external-reference', element: 'source', detail: 'http://a/b.webp 2x' },
    ]);
  });

  it('removes CSS url() and @import that leave the document, keeps inline styles and data: urls', () => {
    const deck = clean(doc(
      '<section class="slide" style="color: #123456; background-image: url( &quot;http://x/bg.png&quot; )"><p style="background: url(data:image/png;base64,AAAA)">t</p></section>',
      '<style>@import "http://x/a.css"; .slide { font-family: serif; background: url(\'/local.png\') }</style>',
    ));
    expect(deck.html).toContain('color: #123456; background-image: none');
    expect(deck.html).toContain('url(data:image/png;base64,AAAA)');
    expect(deck.html).toContain('.slide { font-family: serif; background: none }');
    expect(deck.report).toEqual([
      { kind: 'external-reference', element: 'style', detail: '@import "http://x/a.css";' },
      { kind: 'external-reference', element: 'style', detail: '/local.png' },
      { kind: 'external-reference', element: 'section', detail: 'http://x/bg.png' },
    ]);
  });

  it('rejects answers that are not decks, with the reason', () => {
    const slide = '<section class="slide">s</section>';
    expect(sanitiseDeck('Sure! Here is your deck: slide 1 ...')).toMatchObject({ ok: false, reason: 'not-html' });
    expect(sanitiseDeck(doc('<div>no slides</div>'))).toMatchObject({ ok: false, reason: 'no-slides' });
    expect(sanitiseDeck(doc('<section class="slide"><script>x</script></section>'.replace('class="slide"', 'class="other"')))).toMatchObject({ ok: false, reason: 'no-slides' });
    expect(sanitiseDeck(doc(slide.repeat(60)))).toMatchObject({ ok: true, slides: 60 });
    expect(sanitiseDeck(doc(slide.repeat(61)))).toMatchObject({ ok: false, reason: 'too-many-slides', message: 'the deck has 61 slides; at most 60 are allowed' });
    const big = doc(`${slide}<p>${'x'.repeat(2_000_000)}</p>`);
    expect(sanitiseDeck(big)).toMatchObject({ ok: false, reason: 'too-large' });
  });
});
